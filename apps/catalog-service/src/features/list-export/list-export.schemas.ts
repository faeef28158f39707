import { calendarDateSchema, timestampSchema, z } from '@mt/contracts';
import { EXPORT_FORMAT } from '@mt/importers';
import { componentPrefix, type CategoryDefinition } from '../../domain/categories';
import { catalogSchemas } from '../catalog/catalog.schemas';
import { LIST_STATUSES } from '../../domain/list-entry';

export const EXPORT_FORMATS = ['json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const ExportQuery = z.strictObject({
  format: z
    .enum(EXPORT_FORMATS)
    .optional()
    .openapi({ description: '`json` (default): `media-tracker/list@1`; `csv`: one header row, one row per entry' }),
});

const cache = new Map<string, z.ZodType>();

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
