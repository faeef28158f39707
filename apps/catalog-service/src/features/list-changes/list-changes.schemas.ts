import { idSchema, limitParam, timestampSchema, z } from '@mt/contracts';
import { listSchemas } from '../list/list.schemas';
import { playSchemas } from '../plays/plays.schemas';

export const MAX_FEED_LIMIT = 500;
export const DEFAULT_FEED_LIMIT = 100;

export interface ChangesQuery {
  since?: string;
  limit?: number;
}

/** The change feed's schemas, shared by every category like the list's. */
function buildChangesSchemas() {
  const ChangesQuery = z.strictObject({
    since: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .openapi({ description: 'The `next_since` of the previous page; without it the feed starts at the beginning of the retained history' }),
    limit: limitParam(MAX_FEED_LIMIT, DEFAULT_FEED_LIMIT),
  });

  const UpsertChange = z
    .object({
      type: z.literal('upsert'),
      item_id: idSchema(),
      entry: listSchemas.ListEntry,
      changed_at: timestampSchema(),
    })
    .openapi('ListChangeUpsert', { description: 'The entry was added or changed: its state now' });
  const DeleteChange = z
    .object({ type: z.literal('delete'), item_id: idSchema(), changed_at: timestampSchema() })
    .openapi('ListChangeDelete', { description: 'The entry left the list' });

  const PlayChange = z
    .object({ type: z.literal('play'), item_id: idSchema(), play: playSchemas.Play, changed_at: timestampSchema() })
    .openapi('ListChangePlay', { description: 'A play was recorded (the entry\'s `upsert` comes with it when its status or progress changed)' });
  const PlayDeleteChange = z
    .object({ type: z.literal('play_delete'), item_id: idSchema(), play_id: idSchema(), changed_at: timestampSchema() })
    .openapi('ListChangePlayDelete', { description: 'A play was removed (the plays of an entry that left the list go with its `delete`)' });

  const ChangesPage = z
    .object({
      changes: z.array(z.discriminatedUnion('type', [UpsertChange, DeleteChange, PlayChange, PlayDeleteChange])),
      next_since: z.string().openapi({ description: 'Pass as `since` to continue (also when `has_more` is false: it is where you are now)' }),
      has_more: z.boolean().openapi({ description: 'More changes are ready to be read now' }),
    })
    .openapi('ListChangesPage');

  return { ChangesQuery, ChangesPage };
}

export const changesSchemas = buildChangesSchemas();
