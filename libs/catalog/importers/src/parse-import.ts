import { errors } from '@mt/errors';
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
  return parser.parse(input, {
    category: options.category,
    limits: options.limits ?? IMPORT_LIMITS,
    fileName: options.fileName,
  });
}
