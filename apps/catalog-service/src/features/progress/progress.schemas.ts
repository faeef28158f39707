import { calendarDateSchema, idSchema, limitParam, timestampSchema, z } from '@mt/contracts';
import { cursorParam, nextCursorSchema } from '@mt/pagination';

/** The progress and up-next schemas (episodic categories). */
function buildProgressSchemas() {
  const NextEpisode = z
    .object({ id: idSchema(), season: z.number().int(), number: z.number().int(), title: z.string().nullable(), air_date: calendarDateSchema().nullable() })
    .openapi('NextEpisode', { description: 'The first regular episode (by season, then number) without a play in the current cycle' });
  const Progress = z
    .object({
      cycle: z.number().int().min(1),
      aired: z.number().int().openapi({ description: 'Aired episodes of the regular seasons (`air_date` ≤ today)' }),
      completed: z.number().int().openapi({ description: 'Distinct regular episodes played in the current cycle' }),
      next_episode: NextEpisode.nullable(),
      last_played_at: timestampSchema().nullable().openapi({ description: 'The latest known `watched_at` of the show\'s plays (any cycle)' }),
      seasons: z.array(
        z.object({
          number: z.number().int(),
          aired: z.number().int(),
          completed: z.number().int().openapi({ description: "The season's episodes played in the current cycle" }),
          episodes: z.array(
            z.object({
              id: idSchema(),
              number: z.number().int(),
              title: z.string().nullable(),
              air_date: calendarDateSchema().nullable(),
              plays: z.number().int().openapi({ description: 'Plays in the current cycle' }),
              last_watched_at: timestampSchema().nullable(),
            }),
          ),
        }),
      ),
    })
    .openapi('ShowProgress');
  const UpNextPage = z
    .object({
      data: z.array(
        z.object({
          item: z.object({ id: idSchema(), title: z.string(), year: z.number().int().nullable() }),
          next_episode: NextEpisode,
          completed: z.number().int(),
          aired: z.number().int(),
          last_played_at: timestampSchema().nullable(),
        }),
      ),
      limit: z.number().int(),
      next_cursor: nextCursorSchema(),
    })
    .openapi('UpNextPage');
  const UpNextQuery = z.strictObject({ cursor: cursorParam(), limit: limitParam() });
  return { Progress, UpNextPage, UpNextQuery };
}

export const progressSchemas = buildProgressSchemas();
