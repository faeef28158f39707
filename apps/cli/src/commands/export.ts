import { isApiError, type ApiClient, type ExportFormat } from '@mt/api-client';
import { Option, type Command } from 'commander';
import { createWriteStream, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { EXPORT_FORMATS } from '../api-values';
import { withExamples, type CommandContext } from '../command-context';
import { CliError, usageError } from '../errors';
import { EXIT } from '../exit-codes';
import type { Session } from '../session';

/** A download of a whole list may take longer than a request's usual 30 s. */
const EXPORT_TIMEOUT_MS = 10 * 60_000;

/** What `mt export -o` wrote, one row per file (its --json shape: `{ files: [...] }`). */
export interface WrittenFile {
  category: string;
  format: ExportFormat;
  path: string;
  bytes: number;
}

export function registerExport(program: Command, ctx: CommandContext): void {
  withExamples(
    program
      .command('export')
      .summary('download your list (JSON or CSV) to a file or standard output')
      .description(
        'Download your whole list in a category as the API exports it (JSON media-tracker/list@1, or CSV), streamed to the file or to standard output as it arrives. ' +
          '-o names a file, or an existing directory to write the server\'s file name (<category>-list-<date>.<format>) into. ' +
          '--all writes one file per category of the server into the directory -o names (created if missing). A file is written under a temporary name and renamed when complete. ' +
          'The files are mt import\'s media-tracker and csv sources.',
      )
      .argument('[category]', 'movies, tvshows, books... (or --all)')
      .option('-a, --all', 'every category of the server, one file each, into the directory of -o')
      .addOption(new Option('-f, --format <format>', 'json (default) or csv').choices(EXPORT_FORMATS).default('json'))
      .option('-o, --output <path>', 'a file, or a directory (default: standard output)'),
    'mt export movies > movies.json',
    'mt export books --format csv -o books.csv',
    'mt export --all -o backup/ --json | jq -r ".files[].path"',
  ).action(async (category: string | undefined, options: { all?: boolean; format: ExportFormat; output?: string }, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    if (options.all && category !== undefined) throw usageError('give a category or --all, not both');
    if (!options.all && category === undefined) throw usageError('give a category (or --all)');
    const api = session.api(undefined, { timeoutMs: EXPORT_TIMEOUT_MS });
    if (!options.all) {
      const target = options.output;
      if (target === undefined) {
        const file = await api.exportList(category as string, options.format);
        await pipeline(Readable.fromWeb(file.body as NodeReadableStream<Uint8Array>), ctx.io.stdout, { end: false });
        return;
      }
      const written = await exportTo(api, category as string, options.format, isDirectory(target) ? { dir: target } : { file: target });
      report(session, [written]);
      return;
    }
    if (!options.output) throw usageError('--all writes one file per category: give the directory with -o');
    mkdirSync(options.output, { recursive: true });
    const files: WrittenFile[] = [];
    for (const { id } of await api.categories()) {
      try {
        files.push(await exportTo(api, id, options.format, { dir: options.output }));
      } catch (error) {
        // A category the server lists without an export (a test-only one) is not a reason to stop the others.
        if (!isApiError(error, 'not_found')) throw error;
        session.output.warn(`${id}: the server has no export for this category (skipped)`);
      }
    }
    report(session, files);
  });
}

function report(session: Session, files: WrittenFile[]): void {
  session.output.result({ files }, () =>
    files.map((file) => `Wrote your ${file.category} list to ${file.path} (${file.bytes.toLocaleString('en')} bytes).`).join('\n'),
  );
}

const isDirectory = (target: string): boolean => {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
};

/** Streams one export into `file`, or into the server's file name in `dir`: under a temporary name, renamed once complete. */
async function exportTo(api: ApiClient, category: string, format: ExportFormat, target: { file: string } | { dir: string }): Promise<WrittenFile> {
  const download = await api.exportList(category, format);
  const destination = 'file' in target ? target.file : path.join(target.dir, safeName(download.fileName) ?? `${category}.${format}`);
  const temporary = path.join(path.dirname(destination), `.${path.basename(destination)}.${process.pid}.tmp`);
  try {
    await pipeline(Readable.fromWeb(download.body as NodeReadableStream<Uint8Array>), createWriteStream(temporary, { mode: 0o600 }));
    renameSync(temporary, destination);
  } catch (error) {
    rmSync(temporary, { force: true });
    // A file-system error (no such directory, no permission) says which file; a failed download is reported as such.
    if ((error as NodeJS.ErrnoException).syscall) {
      throw new CliError(`cannot write ${destination}: ${(error as NodeJS.ErrnoException).code}`, EXIT.error);
    }
    throw error;
  }
  return { category, format, path: destination, bytes: statSync(destination).size };
}

/** The server's file name, only when it is a plain name (it must not choose where the file goes). */
const safeName = (name: string | undefined): string | undefined =>
  name && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) ? name : undefined;
