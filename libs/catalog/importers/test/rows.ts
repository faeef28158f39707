import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  isImportFileError,
  parseImport,
  type ImportEntry,
  type ImportRow,
  type ParseImportOptions,
} from '../src';

export const FIXTURES = join(__dirname, '..', 'fixtures');

export const fixture = (path: string): Readable => createReadStream(join(FIXTURES, path));

/** A byte stream of `content` in chunks of `chunkBytes` (to cut tokens and characters across chunks). */
export function streamOf(content: string | Buffer, chunkBytes = 64 * 1024): Readable {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return Readable.from(
    (function* () {
      for (let start = 0; start < bytes.length; start += chunkBytes)
        yield bytes.subarray(start, start + chunkBytes);
    })(),
    { objectMode: false },
  );
}

export async function collect(rows: AsyncIterable<ImportRow>): Promise<ImportRow[]> {
  const all: ImportRow[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

export const parseAll = (input: Readable, options: ParseImportOptions): Promise<ImportRow[]> =>
  collect(parseImport(input, options));

/** An ok row of a list file (every source but our plays CSV, whose rows have no entry). */
export type OkRow = Extract<ImportRow, { ok: true }> & { readonly entry: ImportEntry };
export const okRows = (rows: readonly ImportRow[]): OkRow[] =>
  rows.filter((row): row is OkRow => row.ok && row.entry !== null);
export type PlaysRow = Extract<ImportRow, { ok: true }>;
export const playsRows = (rows: readonly ImportRow[]): PlaysRow[] =>
  rows.filter((row): row is PlaysRow => row.ok);
export const skipped = (rows: readonly ImportRow[]) => rows.filter((row) => !row.ok && row.skipped);
export const failed = (rows: readonly ImportRow[]) => rows.filter((row) => !row.ok && !row.skipped);

/** The ok rows by title, for assertions that read as a table. */
export const byTitle = (rows: readonly ImportRow[]): Map<string, OkRow> =>
  new Map(okRows(rows).map((row) => [row.item.title ?? '', row]));

/** How a read that must fail was refused: the ImportFileError's fields, or undefined when it did not fail. */
export const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => {
      if (!isImportFileError(error)) throw error;
      return { problem: error.problem, status: error.status, limit: error.limit, message: error.message };
    },
  );
