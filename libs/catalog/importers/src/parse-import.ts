import { errors } from '@mt/errors';
import { fileTooLarge } from './import-file-error';
import { IMPORT_LIMITS, type ImportLimits } from './limits';
import type { Category, ImportRow } from './model';
import type { ImportInput } from './reading/byte-chunks';
import { IMPORT_SOURCES, sourcesFor } from './sources/registry';
import type { SourceId } from './sources/source';

export interface ParseImportOptions {
  readonly source: SourceId;
  readonly category: Category;
  /** The uploaded file's name, when known (Letterboxd's watched.csv and watchlist.csv share a header). */
  readonly fileName?: string;
  /** Defaults to the documented import limits (IMPORT_LIMITS). */
  readonly limits?: ImportLimits;
}

/**
 * The rows of an uploaded file, read as a stream: `for await (const row of parseImport(request, ...))`.
 * Throws an ImportFileError (400 `unreadable`, 413 `too_large`) when the whole file is refused — possibly
 * after some rows were already yielded, so a caller that must answer before any job exists reads the file
 * through once first. Stopping the iteration early releases the input.
 */
export function parseImport(input: ImportInput, options: ParseImportOptions): AsyncIterable<ImportRow> {
  const parser = IMPORT_SOURCES[options.source];
  if (!parser || !parser.categories.includes(options.category)) {
    const message = `source '${String(options.source)}' cannot be imported into ${options.category} (sources: ${sourcesFor(options.category).join(', ')})`;
    throw errors.validation(message, [{ path: 'source', message }]);
  }
  const limits = options.limits ?? IMPORT_LIMITS;
  return withinPlayLimit(
    parser.parse(input, { category: options.category, limits, fileName: options.fileName }),
    limits.maxPlays,
  );
}

/** Counts were expanded into plays row by row: the file as a whole is held to its own bound too. */
async function* withinPlayLimit(rows: AsyncIterable<ImportRow>, maxPlays: number): AsyncGenerator<ImportRow> {
  let plays = 0;
  for await (const row of rows) {
    if (row.ok) plays += row.plays.length;
    if (plays > maxPlays) throw fileTooLarge(`the file has more than ${maxPlays} plays`, 'maxPlays');
    yield row;
  }
}
