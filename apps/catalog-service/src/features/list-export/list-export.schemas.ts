import { calendarDateSchema, timestampSchema, z } from '@mt/contracts';
import { EXPORT_FORMAT } from '@mt/importers';
import { componentPrefix, type CategoryDefinition } from '../../domain/categories';
import { catalogSchemas } from '../catalog/catalog.schemas';
import { LIST_STATUSES } from '../../domain/list-entry';

export const EXPORT_FORMATS = ['json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_ROWS = ['entries', 'plays'] as const;
export type ExportRows = (typeof EXPORT_ROWS)[number];

export const ExportQuery = z
  .strictObject({
    format: z
      .enum(EXPORT_FORMATS)
      .optional()
      .openapi({ description: '`json` (default): `media-tracker/list@1`, each entry with its `plays`; `csv`: one header row, one row per entry (or per play with `rows=plays`)' }),
    rows: z
      .enum(EXPORT_ROWS)
      .optional()
      .openapi({ description: 'CSV only: `entries` (default) or `plays`, one row per play' }),
  })
  .refine((query) => query.rows === undefined || query.format === 'csv', { message: 'rows is a CSV layout: give format=csv', path: ['rows'] });

const cache = new Map<string, z.ZodType>();

let playSchema: z.ZodType | undefined;
const exportedPlaySchema = (): z.ZodType =>
  (playSchema ??= z
    .object({
      season: z.number().int().min(0).nullable(),
      number: z.number().int().min(1).nullable(),
      watched_at: timestampSchema().nullable(),
      precision: z.enum(['exact', 'day', 'unknown', 'release']),
      cycle: z.number().int().min(1),
      source: z.string(),
    })
    .openapi('ExportedPlay', { description: 'A play as exported: what a re-import needs to make it again' }));

/** The JSON export file of a category, for the OpenAPI document. */
export function exportFileSchema(category: CategoryDefinition): z.ZodType {
  let schema = cache.get(category.id);
  if (!schema) {
    const prefix = componentPrefix(category);
    const entry = z
      .object({
        item: catalogSchemas(category).Entry,
        status: z.enum(LIST_STATUSES),
        score: z.number().int().min(1).max(10).nullable(),
        progress: z.number().int().min(0).nullable(),
        notes: z.string().nullable(),
        started_at: calendarDateSchema().nullable(),
        finished_at: calendarDateSchema().nullable(),
        created_at: timestampSchema(),
        updated_at: timestampSchema(),
        plays: z.array(exportedPlaySchema()).openapi({ description: 'Its plays, oldest first (by cycle, then `watched_at`, unknown first)' }),
      })
      .openapi(`${prefix}ExportedEntry`, { description: 'One list entry with its full catalog entry' });
    schema = z
      .object({
        format: z.literal(EXPORT_FORMAT),
        category: z.literal(category.id),
        exported_at: timestampSchema(),
        entries: z.array(entry).openapi({ description: 'Oldest first (the order they were added)' }),
      })
      .openapi(`${prefix}ListExport`, { description: `Your ${category.displayName} list as \`${EXPORT_FORMAT}\`` });
    cache.set(category.id, schema);
  }
  return schema;
}
