import { limitParam, pageParam, pageSchema, timestampSchema, z } from '@mt/contracts';
import { formatSize, sourcesFor, type Category } from '@mt/importers';
import { cursorParam, nextCursorSchema, refusePageWithCursor } from '@mt/pagination';
import type { CategoryDefinition } from '../../domain/categories';
import { IMPORT_MODES } from '../../domain/list-import';
import { objectIdParam } from '@mt/contracts';
import { IMPORT_COUNT_KEYS, MAX_KEPT_ERRORS, MAX_KEPT_ROW_BYTES, MAX_ROW_MESSAGE_BYTES } from '../../domain/list-import';

const count = () => z.number().int().min(0);

const COUNT_DESCRIPTIONS: Record<(typeof IMPORT_COUNT_KEYS)[number], string> = {
  rows: 'Data rows of the file (a Letterboxd diary: one per film; Trakt history: one per movie)',
  matched: 'Rows matched to an existing catalog entry (by external id, else folded title + year)',
  catalog_created: 'Rows that created a catalog entry (nothing matched; needs `catalog:write`)',
  added: 'Entries added to your list',
  updated: 'Entries replaced (`mode=overwrite`) because they differed',
  unchanged: 'Rows equal to the entry already on your list',
  skipped: 'Rows not applied: another category (an IMDb TV row imported into movies, a Trakt episode), or an entry on your list that differs, with `mode=skip_existing`',
  failed: 'Rows that could not be imported (each in `errors`, up to 1000)',
};

export const ImportJobSchema = z
  .object({
    id: z.string(),
    category: z.string(),
    source: z.string(),
    mode: z.enum(IMPORT_MODES),
    dry_run: z.boolean(),
    file_name: z.string().nullable().openapi({ description: 'The `file` parameter, when given' }),
    status: z.enum(['queued', 'running', 'completed', 'failed']),
    counts: z.object(Object.fromEntries(IMPORT_COUNT_KEYS.map((key) => [key, count().openapi({ description: COUNT_DESCRIPTIONS[key] })])) as Record<(typeof IMPORT_COUNT_KEYS)[number], ReturnType<typeof count>>),
    errors: z
      .array(z.object({ row: z.number().int().min(1), message: z.string() }))
      .openapi({ description: `Failed rows, in file order (row 1 is the first data row of a JSON file, the header of a CSV file, as a spreadsheet numbers it); the first ones, at most ${MAX_KEPT_ERRORS} and ${formatSize(MAX_KEPT_ROW_BYTES)} as stored, each message cut to ${MAX_ROW_MESSAGE_BYTES} bytes` }),
    warnings: z
      .array(z.object({ row: z.number().int().min(1), message: z.string() }))
      .openapi({ description: `Rows imported with a remark, in file order (numbered as \`errors\`): a value that was not valid and was dropped (an external id, a year), a list cut to its maximum, notes shortened to 2000 characters; the row itself was applied. Bounded like \`errors\`` }),
    failure: z.string().nullable().openapi({ description: 'Why a `failed` job stopped (not a row problem); null otherwise' }),
    created_at: timestampSchema(),
    started_at: timestampSchema().nullable(),
    finished_at: timestampSchema().nullable(),
  })
  .openapi('ImportJob', { description: 'An import of a file into your list; counts grow as batches are committed' });

export const ImportJobPageSchema = z
  .object({ ...pageSchema(ImportJobSchema, 'ImportJobPageBase').shape, next_cursor: nextCursorSchema() })
  .openapi('ImportJobPage');

export const ImportJobParams = z.strictObject({ id: objectIdParam() });

export const ImportJobListQuery = z
  .strictObject({ page: pageParam(), cursor: cursorParam(), limit: limitParam() })
  .superRefine((query, ctx) => refusePageWithCursor(query, ctx));

export type ImportJobListQueryInput = z.output<typeof ImportJobListQuery>;

const queries = new Map<string, ReturnType<typeof buildStartQuery>>();

function buildStartQuery(category: CategoryDefinition) {
  const sources = sourcesFor(category.id as Category) as [string, ...string[]];
  return z.strictObject({
    source: z.enum(sources).openapi({ description: `The file's origin: ${sources.map((s) => `\`${s}\``).join(', ')} (mappings below)` }),
    mode: z.enum(IMPORT_MODES).optional().openapi({ description: '`skip_existing` (default): entries already on your list stay as they are; `overwrite`: their fields are replaced by the row\'s' }),
    dry_run: z
      .enum(['true', 'false'])
      .optional()
      .transform((value) => value === 'true')
      .openapi({ type: 'boolean', description: '`true`: the job reports the same counts and changes nothing' }),
    file: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .openapi({ description: "The uploaded file's name (`watched.csv`, `watchlist.csv`): Letterboxd writes those two with the same header, so it is required for them" }),
  });
}

export function importStartQuery(category: CategoryDefinition) {
  let query = queries.get(category.id);
  if (!query) queries.set(category.id, (query = buildStartQuery(category)));
  return query;
}

export type ImportStartQuery = z.output<ReturnType<typeof importStartQuery>>;
