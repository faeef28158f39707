import { calendarDateSchema, idSchema, limitParam, objectIdParam, timestampSchema, z } from '@mt/contracts';
import { cursorParam, nextCursorSchema } from '@mt/pagination';
import { MAX_EPISODE_NUMBER, MAX_SEASON } from '../../domain/episodes';
import { DEFAULT_PLAYS_PAGE, MAX_BATCH_ITEMS, MAX_PLAYS_PAGE, MAX_SOURCE_EVENT_ID, PLAY_PRECISIONS } from '../../domain/plays';
import { listSchemas } from '../list/list.schemas';

const WATCHED_AT =
  '`now` (default), a date-time (`exact`), a date `YYYY-MM-DD` (`day`: 00:00 UTC), `release` (an episode\'s air date; a movie\'s or book\'s 1 January of its year; 400 when unknown) or `unknown` (`watched_at` null). A play more than five minutes in the future is a 400.';

/** The plays' schemas, shared by every category (episode forms are refused outside episodic ones by the service). */
function buildPlaySchemas() {
  const season = () => z.number().int().min(0).max(MAX_SEASON);
  const watchedAt = z
    .union([z.enum(['now', 'release', 'unknown']), z.iso.datetime({ offset: true }), calendarDateSchema()])
    .optional()
    .openapi({ type: 'string', description: WATCHED_AT, example: '2026-11-21T20:15:00.000Z' });
  const episodeRef = z.union([
    z.strictObject({ season: season(), number: z.number().int().min(1).max(MAX_EPISODE_NUMBER) }),
    z.strictObject({ episode_id: objectIdParam() }),
  ]);
  const playFields = {
    watched_at: watchedAt,
    episodes: z.array(episodeRef).min(1).max(1000).optional().openapi({ description: 'Episodes played, by season and number or by id (tvshows only)' }),
    seasons: z.array(season()).min(1).max(MAX_SEASON + 1).optional().openapi({ description: 'Every aired episode of these seasons (tvshows only; season 0: aired specials)' }),
    all_aired: z.literal(true).optional().openapi({ description: 'Every aired episode of the regular seasons (tvshows only)' }),
    source_event_id: z.string().min(1).max(MAX_SOURCE_EVENT_ID).optional().openapi({ description: `An id of this viewing in the sender's system (≤ ${MAX_SOURCE_EVENT_ID} characters): the same id twice adds nothing the second time` }),
  };

  const AddPlays = z.strictObject(playFields).openapi('AddPlays');

  const Play = z
    .object({
      id: idSchema(),
      item_id: idSchema(),
      episode: z.object({ id: idSchema(), season: z.number().int(), number: z.number().int() }).nullable().openapi({ description: 'The episode played; null for movies and books, and once the episode was removed from the catalog' }),
      season: z.number().int().nullable().openapi({ description: 'Kept when the episode is removed; null for movies and books' }),
      number: z.number().int().nullable(),
      watched_at: timestampSchema().nullable().openapi({ description: 'When it was watched; null when unknown' }),
      precision: z.enum(PLAY_PRECISIONS).openapi({ description: '`exact`, `day` (00:00 UTC of that day), `unknown` (`watched_at` null), `release` (the release date)' }),
      cycle: z.number().int().min(1).openapi({ description: 'The rewatch cycle the play belongs to (1: the first viewing)' }),
      source: z.string().openapi({ description: '`manual`, `import:<source>` or `scrobble:<server>`', example: 'manual' }),
      created_at: timestampSchema(),
    })
    .openapi('Play');
  const { ItemSummary } = listSchemas;

  const PlaysAdded = z.object({ added: z.array(Play), existing: z.number().int().min(0).openapi({ description: 'Plays of the request already recorded (same source_event_id, or same episode at the same instant)' }) }).openapi('PlaysAdded');
  const cursorPage = <T extends z.ZodType>(item: T, name: string) => z.object({ data: z.array(item), limit: z.number().int(), next_cursor: nextCursorSchema() }).openapi(name);
  const PlaysPage = cursorPage(Play, 'PlaysPage');
  const DiaryPage = cursorPage(Play.extend({ item: ItemSummary }), 'DiaryPage');

  const PlaysQuery = z.strictObject({ cursor: cursorParam(), limit: limitParam(MAX_PLAYS_PAGE, DEFAULT_PLAYS_PAGE) });
  const DiaryQuery = z
    .strictObject({ from: calendarDateSchema().optional().openapi({ description: 'First day (inclusive, UTC)' }), to: calendarDateSchema().optional().openapi({ description: 'Last day (inclusive, UTC)' }), cursor: cursorParam(), limit: limitParam(MAX_PLAYS_PAGE, DEFAULT_PLAYS_PAGE) })
    .refine((query) => !query.from || !query.to || query.from <= query.to, { path: ['to'], message: 'must not be before from' });

  const externalIds = z
    .record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), z.string().min(1).max(100))
    .refine((ids) => Object.keys(ids).length >= 1 && Object.keys(ids).length <= 10, 'give 1–10 external ids')
    .openapi({ description: "The item by any of its external ids (the category's keys, e.g. `imdb`, `tmdb`, `tvdb`); no match → `not_found`", example: { imdb: 'tt0903747' } });
  const BatchItem = z
    .strictObject({ item_id: objectIdParam().optional(), external_ids: externalIds.optional(), ...playFields })
    .refine((item) => (item.item_id === undefined) !== (item.external_ids === undefined), { path: ['item_id'], message: 'give item_id or external_ids (one of them)' });
  const PlaysBatch = z.strictObject({ items: z.array(BatchItem).min(1).max(MAX_BATCH_ITEMS) }).openapi('PlaysBatch');
  const BatchResult = z
    .object({ added: z.number().int(), existing: z.number().int(), not_found: z.array(z.object({ index: z.number().int(), reason: z.string() })) })
    .openapi('PlaysBatchResult');

  const ItemParams = z.strictObject({ item_id: objectIdParam() });
  const PlayParams = z.strictObject({ item_id: objectIdParam(), play_id: objectIdParam() });

  return { AddPlays, Play, PlaysAdded, PlaysPage, DiaryPage, PlaysQuery, DiaryQuery, PlaysBatch, BatchResult, ItemParams, PlayParams, ListEntry: listSchemas.ListEntry, playFields };
}

export const playSchemas = buildPlaySchemas();
