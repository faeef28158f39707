import type { ApiClient, ImportJob, ImportMode } from '@mt/api-client';
import { Argument, Option, type Command } from 'commander';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LETTERBOXD_FILE_KINDS } from '@mt/domain';
import { IMPORT_MODES, IMPORT_SOURCE_TYPES, IMPORT_SOURCES, MAX_PAGE_LIMIT } from '../api-values';
import { integer } from '../arguments';
import { withExamples, type CommandContext } from '../command-context';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import type { Output } from '../output/output';
import type { Session } from '../session';
import { pageFooter } from './catalog';

/** How often a running import is asked about: modest, a job of thousands of rows takes seconds. */
const POLL_INTERVAL_MS = 500;
const FINISHED: ReadonlySet<ImportJob['status']> = new Set(['completed', 'failed']);
/** Row errors shown in the text report (all of them are in --json). */
const SHOWN_ERRORS = 20;

export function registerImports(program: Command, ctx: CommandContext): void {
  withExamples(
    program
      .command('import')
      .summary('import a file from another tracker (or an mt export) into your list')
      .description(
        'Upload a file to import into your list, then follow the import job to its end and print its report: the counts and the rows that failed. ' +
          'The job runs on the server: interrupting mt does not stop it (see mt imports). Exit 1 when the job failed as a whole; rows that failed are listed, and do not change the exit code.',
      )
      .argument('<category>', 'movies, tvshows, books...')
      .addArgument(new Argument('<source>', "where the file comes from (media-tracker and csv: mt's own exports)").choices(IMPORT_SOURCES))
      .argument('<file>', 'the file, as the source exported it (CSV or JSON)')
      .option('-n, --dry-run', 'report what the import would do, change nothing')
      .addOption(new Option('--mode <mode>', 'entries already on your list: skip_existing (default) leaves them, overwrite replaces their fields').choices(IMPORT_MODES))
      .addOption(
        new Option('--file-kind <kind>', "which of the source's files it is, whatever its name (Letterboxd: watched.csv or watchlist.csv); default: the file's own name").choices(
          LETTERBOXD_FILE_KINDS,
        ),
      )
      .option('--no-wait', 'print the queued job and return without following it'),
    'mt import movies letterboxd ~/letterboxd/diary.csv --dry-run',
    'mt import movies letterboxd ~/Downloads/letterboxd.csv --file-kind watchlist.csv',
    'mt import books goodreads goodreads_library_export.csv --mode overwrite',
    'mt import movies media-tracker movies-list-2026-01-01.json --json | jq .counts',
  ).action(async (category: string, source: keyof typeof IMPORT_SOURCE_TYPES, file: string, options: { dryRun?: boolean; mode?: ImportMode; fileKind?: string; wait: boolean }, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch (error) {
      throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, EXIT.usage);
    }
    const api = session.api();
    const queued = await api.startImport(category, {
      body,
      contentType: IMPORT_SOURCE_TYPES[source],
      source,
      mode: options.mode,
      dryRun: options.dryRun,
      // The API's `file`: the kind when given, so a renamed export needs no renaming back.
      fileName: options.fileKind ?? path.basename(file),
    });
    if (!options.wait) {
      session.output.result(queued, () => `Import ${queued.id} queued (follow it with: mt imports ${category}).`);
      return;
    }
    const job = await followJob(session, api, category, queued);
    session.output.result(job, () => describeJob(session.output, job));
    if (job.status === 'failed') ctx.setExitCode(EXIT.error);
  });

  withExamples(
    program
      .command('imports')
      .summary('your import jobs in a category, newest first')
      .description('List your import jobs in a category, newest first (finished jobs are kept 30 days): one page, or all with --all.')
      .argument('<category>', 'movies, tvshows, books...')
      .option('--page <n>', 'page number (default 1)', integer(1, 1_000_000_000))
      .option('--limit <n>', `jobs per page (1-${MAX_PAGE_LIMIT}, default 20)`, integer(1, MAX_PAGE_LIMIT))
      .option('-a, --all', 'every job: follow the pages to the end'),
    'mt imports movies',
    'mt imports books --all --json | jq -r \'.data[] | select(.status == "failed") | .id\'',
  ).action(async (category: string, options: { page?: number; limit?: number; all?: boolean }, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    const api = session.api();
    const render = (jobs: readonly ImportJob[]) =>
      jobs.length === 0
        ? 'No imports here.'
        : session.output.table(jobs, [
            { header: 'ID', value: (job: ImportJob) => job.id, style: (text) => session.output.style.dim(text) },
            { header: 'SOURCE', value: (job) => job.source + (job.dry_run ? ' (dry run)' : '') },
            { header: 'STATUS', value: (job) => job.status, style: (text, job) => statusStyle(session.output, job.status)(text) },
            { header: 'ROWS', value: (job) => String(job.counts.rows) },
            { header: 'ADDED', value: (job) => String(job.counts.added) },
            { header: 'UPDATED', value: (job) => String(job.counts.updated) },
            { header: 'FAILED', value: (job) => String(job.counts.failed) },
            { header: 'CREATED', value: (job) => job.created_at.slice(0, 16).replace('T', ' ') },
          ]);
    if (!options.all) {
      const page = await api.listImports(category, { page: options.page, limit: options.limit });
      session.output.result(page, () => render(page.data) + (page.data.length ? pageFooter(session.output, page) : ''));
      return;
    }
    const jobs: ImportJob[] = [];
    for await (const job of api.allImports(category, { limit: options.limit ?? MAX_PAGE_LIMIT })) jobs.push(job);
    session.output.result({ data: jobs, total: jobs.length }, () => render(jobs));
  });
}

/** Polls the job until it has finished; a progress bar on stderr when that is a terminal. */
async function followJob(session: Session, api: ApiClient, category: string, queued: ImportJob): Promise<ImportJob> {
  const bar = session.io.stderr.isTTY ? new ProgressBar(session.io.stderr) : undefined;
  let job = queued;
  try {
    while (!FINISHED.has(job.status)) {
      bar?.draw(job);
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      job = await api.getImport(category, job.id);
    }
  } finally {
    bar?.clear();
  }
  return job;
}

const processedRows = (job: ImportJob): number =>
  job.counts.added + job.counts.updated + job.counts.unchanged + job.counts.skipped + job.counts.failed;

class ProgressBar {
  constructor(private readonly stream: NodeJS.WriteStream) {}

  draw(job: ImportJob): void {
    const total = job.counts.rows;
    const done = Math.min(processedRows(job), total);
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : 0;
    const label = job.status === 'queued' ? 'queued' : `${done}/${total} rows`;
    this.stream.write(`\r\u001b[2Kimporting [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${label}`);
  }

  clear(): void {
    this.stream.write('\r\u001b[2K');
  }
}

const statusStyle = (output: Output, status: ImportJob['status']) =>
  status === 'completed' ? output.style.green : status === 'failed' ? output.style.red : output.style.yellow;

/** The text report of a finished job: what it did, the counts, the rows that failed, the rows applied with a remark. */
export function describeJob(output: Output, job: ImportJob): string {
  const { style } = output;
  const how = [job.source, job.mode, job.dry_run ? 'dry run: nothing was changed' : undefined].filter(Boolean).join(', ');
  const lines = [`Import ${style.dim(job.id)} (${how}): ${statusStyle(output, job.status)(job.status)}, ${job.counts.rows} rows`];
  if (job.failure) lines.push(`  ${style.red(job.failure)}`);
  const c = job.counts;
  lines.push(
    `  matched ${c.matched}, created in the catalog ${c.catalog_created}; added ${c.added}, updated ${c.updated}, unchanged ${c.unchanged}, skipped ${c.skipped}, failed ${c.failed}`,
  );
  if (job.errors.length) {
    lines.push('Rows that failed:');
    for (const error of job.errors.slice(0, SHOWN_ERRORS)) lines.push(`  row ${error.row}: ${error.message}`);
    if (job.errors.length > SHOWN_ERRORS) lines.push(style.dim(`  … ${job.errors.length - SHOWN_ERRORS} more (--json lists them all)`));
  }
  if (job.warnings.length) {
    lines.push('Rows imported with a remark:');
    for (const warning of job.warnings.slice(0, SHOWN_ERRORS)) lines.push(`  row ${warning.row}: ${warning.message}`);
    if (job.warnings.length > SHOWN_ERRORS) lines.push(style.dim(`  … ${job.warnings.length - SHOWN_ERRORS} more (--json lists them all)`));
  }
  return lines.join('\n');
}
