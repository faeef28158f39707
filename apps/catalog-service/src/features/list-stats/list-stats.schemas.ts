import { z } from '@mt/contracts';
import { LIST_STATUSES } from '../../domain/list-entry';

const count = () => z.number().int().min(0);

/** The statistics of a list, shared by every category. */
export const ListStatsSchema = z
  .object({
    total: count(),
    by_status: z.object(Object.fromEntries(LIST_STATUSES.map((status) => [status, count()])) as Record<(typeof LIST_STATUSES)[number], ReturnType<typeof count>>),
    mean_score: z.number().nullable().openapi({ description: 'Mean of the scored entries, one decimal; null when no entry is scored' }),
    score_histogram: z.record(z.string(), count()).openapi({ description: 'Entries per score, keys "1" … "10", every key present' }),
    progress_total: count().openapi({ description: "Sum of the entries' progress, in the category's progress unit" }),
    completed_by_year: z
      .record(z.string(), count())
      .openapi({ description: 'Completed entries by the year of `finished_at` (completed entries without a finish date are not counted); only years with at least one' }),
    plays_by_month: z
      .record(z.string(), count())
      .openapi({ description: 'Plays by the month (UTC, `YYYY-MM`) of `watched_at`; plays whose time is unknown are in no month; only months with at least one' }),
    minutes_watched: count().openapi({
      description: "Runtime × plays: a movie's play by its `runtime_minutes`, an episode's by the episode's own; a play whose runtime is unknown adds 0 (books: always 0)",
    }),
    episodes_watched: count()
      .optional()
      .openapi({ description: 'tvshows: plays of episodes, rewatches counted (specials included)' }),
  })
  .openapi('ListStats', { description: 'Exact at the moment it is read: counters kept in the same transaction as every list write, the play figures grouped from the plays when read' });
