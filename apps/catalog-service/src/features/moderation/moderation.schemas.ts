import { objectIdParam, z } from '@mt/contracts';

/** `DELETE /api/v1/{category}/{id}`. */
export const EntryRemovalSchema = z
  .object({
    message: z.string(),
    list_entries_removed: z.number().int().min(0).describe('How many users\' list entries pointed at the entry and were removed with it (each removal is in its owner\'s change feed)'),
  })
  .openapi('EntryRemoval');

/** `POST /api/v1/{category}/{id}/merge`. */
export const MergeEntrySchema = z.strictObject({ into: objectIdParam().describe('The entry that survives') }).openapi('MergeEntry');
