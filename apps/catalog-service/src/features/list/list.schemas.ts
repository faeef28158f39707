import { cursorParam, nextCursorSchema, refusePageWithCursor } from '@mt/pagination';
import { calendarDateSchema, idSchema, limitParam, objectIdParam, orderParam, pageParam, pageSchema, timestampSchema, z } from '@mt/contracts';
import { LIST_SORTS, LIST_STATUSES, MAX_BULK_IDS } from '../../domain/list-entry';

const DATE_RULES =
  'Adding or moving an entry to `watching` sets an empty `started_at` to today (UTC); to `completed` sets an empty `finished_at` to today; leaving a status clears nothing. `finished_at` before `started_at` is a 400.';

const PROGRESS = "Progress (integer ≥ 0) in the category's `progress_unit` (minutes, episodes, pages)";

/**
 * The personal list's schemas: the same in every category (progress is counted in the category's unit,
 * which the category record names), so they are declared once and shared by every category's operations.
 */
function buildListSchemas() {
  const status = () => z.enum(LIST_STATUSES).openapi({ description: 'Any status may move to any other' });

  const editableFields = () => ({
    score: z.number().int().min(1).max(10).nullable().optional().openapi({ description: 'Score 1–10, or null' }),
    progress: z
      .number()
      .int()
      .min(0)
      .nullable()
      .optional()
      .openapi({ description: `${PROGRESS}, or null` }),
    notes: z.string().max(2000).nullable().optional().openapi({ description: 'Notes (at most 2000 characters), or null' }),
    started_at: calendarDateSchema().nullable().optional().openapi({ description: 'Start date YYYY-MM-DD, or null' }),
    finished_at: calendarDateSchema().nullable().optional().openapi({ description: 'Finish date YYYY-MM-DD, or null' }),
  });

  const ItemSummary = z
    .object({
      id: idSchema(),
      title: z.string(),
      year: z.number().int().nullable(),
      poster: z.string().nullable().openapi({ description: "This API's path of the work's poster or cover (`GET /api/v1/images/<provider>/<path>`); null when it has none on an enabled provider's image host" }),
    })
    .openapi('ItemSummary', { description: 'The catalog entry a list entry (or a play of the diary) refers to' });

  const ListEntry = z
    .object({
      item_id: idSchema(),
      item: ItemSummary,
      status: z.enum(LIST_STATUSES),
      score: z.number().int().min(1).max(10).nullable(),
      progress: z.number().int().min(0).nullable().openapi({ description: PROGRESS }),
      notes: z.string().nullable(),
      started_at: calendarDateSchema().nullable(),
      finished_at: calendarDateSchema().nullable(),
      repeat_count: z
        .number()
        .int()
        .min(0)
        .openapi({ description: 'How many times the entry went from `completed` back to `watching` (a rewatch, or a reread in books); kept when it leaves `watching` again' }),
      progress_percent: z
        .number()
        .min(0)
        .max(100)
        .nullable()
        .optional()
        .openapi({ description: "Read-only; books whose `pages` is known: `progress` as a percentage of `pages` (one decimal, at most 100; null without progress). Absent otherwise" }),
      cycle: z.number().int().min(1).openapi({ description: 'The viewing cycle new plays belong to: 1, plus one per rewatch started with POST …/rewatch' }),
      created_at: timestampSchema(),
      updated_at: timestampSchema(),
    })
    .openapi('ListEntry', { description: "An entry of the caller's list in one category" });

  const AddListEntry = z
    .strictObject({
      item_id: objectIdParam().openapi({ description: 'Id of the catalog entry (the key of the list entry)' }),
      status: status().optional().openapi({ description: 'Default `plan_to_watch`' }),
      ...editableFields(),
    })
    .openapi('ListEntryCreate', { description: `Adds a catalog entry to the caller's list. ${DATE_RULES}` });

  const PatchListEntry = z
    .strictObject({ status: status().optional(), ...editableFields() })
    .refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' })
    .openapi('ListEntryPatch', {
      minProperties: 1,
      description: `The fields to change (at least one; not item_id); null clears a field. ${DATE_RULES}`,
    });

  const ListQuerySchema = z.strictObject({
    status: z.enum(LIST_STATUSES).optional().openapi({ description: 'Only entries with this status' }),
    page: pageParam(),
    cursor: cursorParam(),
    limit: limitParam(),
    sort: z
      .enum(LIST_SORTS)
      .optional()
      .openapi({ description: 'Sort key (default `updated_at`; `title` is the item title). Ties break by item id; entries without a score sort last in both orders.' }),
    order: orderParam('`asc` for `title`, `desc` otherwise'),
  }).superRefine(refusePageWithCursor);

  const itemIds = () =>
    z
      .array(objectIdParam())
      .min(1)
      .max(MAX_BULK_IDS)
      .superRefine((ids, ctx) => {
        const seen = new Set<string>();
        ids.forEach((id, index) => {
          if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [index], message: 'duplicate id' });
          seen.add(id);
        });
      })
      .openapi({ description: `1–${MAX_BULK_IDS} distinct catalog entry ids`, uniqueItems: true });

  const BulkStatus = z
    .strictObject({ item_ids: itemIds(), status: z.enum(LIST_STATUSES) })
    .openapi('BulkStatusRequest', {
      description: `Moves the listed entries of the caller's list to \`status\`, all or nothing. ${DATE_RULES}`,
    });
  const BulkDelete = z
    .strictObject({ item_ids: itemIds() })
    .openapi('BulkDeleteRequest', { description: "Removes the listed entries from the caller's list, all or nothing" });

  const BulkStatusResult = z
    .object({
      updated: z.number().int().min(0).openapi({ description: 'Entries matched, including those already in the target status' }),
      not_found: z.array(idSchema()).openapi({ description: "Requested ids that are not on the caller's list" }),
    })
    .openapi('BulkStatusResult');
  const BulkDeleteResult = z
    .object({
      deleted: z.number().int().min(0),
      not_found: z.array(idSchema()).openapi({ description: "Requested ids that are not on the caller's list" }),
    })
    .openapi('BulkDeleteResult');

  // The page object plus the cursor pages' next_cursor (named once: extending a named schema would reference itself).
  const ListEntryPage = z
    .object({ ...pageSchema(ListEntry, 'ListEntryPageBase').shape, next_cursor: nextCursorSchema() })
    .openapi('ListEntryPage');
  const ItemIdParams = z.strictObject({ item_id: objectIdParam() });

  // A status (string), a score or progress (number), or null. Written out by hand: the generator renders a
  // nullable union with an empty `{ nullable: true }` member, which matches anything.
  const historyValue = () =>
    z.union([z.string(), z.number()]).nullable().openapi({ anyOf: [{ type: 'string', nullable: true }, { type: 'number', nullable: true }] } as never);
  const HistoryEvent = z
    .object({
      at: timestampSchema(),
      field: z.enum(['status', 'score', 'progress']),
      from: historyValue().openapi({ description: 'The value before (null: none, or the entry was just added)' }),
      to: historyValue(),
    })
    .openapi('ListEntryHistoryEvent');
  const ListEntryHistory = z.array(HistoryEvent).openapi('ListEntryHistory', { description: 'Newest first, at most 1000 per entry' });

  return {
    ItemSummary,
    ListEntry,
    AddListEntry,
    PatchListEntry,
    ListQuery: ListQuerySchema,
    ListEntryPage,
    ItemIdParams,
    ListEntryHistory,
    BulkStatus,
    BulkDelete,
    BulkStatusResult,
    BulkDeleteResult,
  };
}

/** Built once: the same objects serve validation and the OpenAPI components of every category. */
export const listSchemas = buildListSchemas();
