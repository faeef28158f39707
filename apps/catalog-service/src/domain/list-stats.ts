import { LIST_STATUSES, type ListStatus } from './list-entry';

/** What of an entry the statistics count. */
export interface StatsFields {
  status: ListStatus;
  score: number | null;
  progress: number | null;
  finished_at: string | null;
}

/**
 * The counters kept on the user's `list_owners` document (`stats.<key>`), changed by `$inc` in each list
 * write's transaction: `total`, `status.<status>`, `score.<1..10>`, `progress`, `completed.<year>`
 * (completed entries by the year of `finished_at`). A key that is absent counts 0.
 */
export type StatsCounters = Record<string, number>;

export interface ListStats {
  total: number;
  by_status: Record<ListStatus, number>;
  mean_score: number | null;
  score_histogram: Record<string, number>;
  progress_total: number;
  completed_by_year: Record<string, number>;
}

function contribution(entry: StatsFields): StatsCounters {
  const counters: StatsCounters = { total: 1, [`status.${entry.status}`]: 1 };
  if (entry.score !== null) counters[`score.${entry.score}`] = 1;
  if (entry.progress) counters['progress'] = entry.progress;
  if (entry.status === 'completed' && entry.finished_at) counters[`completed.${entry.finished_at.slice(0, 4)}`] = 1;
  return counters;
}

/** The `$inc` that turns the counters of `before` into those of `after` (null: no entry); zeros left out. */
export function statsDelta(before: StatsFields | null, after: StatsFields | null): StatsCounters {
  const delta: StatsCounters = {};
  if (before) for (const [key, value] of Object.entries(contribution(before))) delta[key] = (delta[key] ?? 0) - value;
  if (after) for (const [key, value] of Object.entries(contribution(after))) delta[key] = (delta[key] ?? 0) + value;
  return Object.fromEntries(Object.entries(delta).filter(([, value]) => value !== 0));
}

export function addDeltas(deltas: readonly StatsCounters[]): StatsCounters {
  const sum: StatsCounters = {};
  for (const delta of deltas) for (const [key, value] of Object.entries(delta)) sum[key] = (sum[key] ?? 0) + value;
  return Object.fromEntries(Object.entries(sum).filter(([, value]) => value !== 0));
}

/** The counters of a whole list (a recount). */
export function countersOf(entries: readonly StatsFields[]): StatsCounters {
  return addDeltas(entries.map((entry) => statsDelta(null, entry)));
}

/** shape: every status and score key present; years only where something was completed. */
export function toListStats(counters: StatsCounters): ListStats {
  const at = (key: string) => counters[key] ?? 0;
  const scores = Array.from({ length: 10 }, (_, i) => String(i + 1));
  const scored = scores.reduce((sum, score) => sum + at(`score.${score}`), 0);
  const scoreSum = scores.reduce((sum, score) => sum + Number(score) * at(`score.${score}`), 0);
  const years = Object.keys(counters)
    .filter((key) => key.startsWith('completed.') && at(key) > 0)
    .map((key) => key.slice('completed.'.length))
    .sort();
  return {
    total: at('total'),
    by_status: Object.fromEntries(LIST_STATUSES.map((status) => [status, at(`status.${status}`)])) as Record<ListStatus, number>,
    mean_score: scored ? Math.round((scoreSum / scored) * 10) / 10 : null,
    score_histogram: Object.fromEntries(scores.map((score) => [score, at(`score.${score}`)])),
    progress_total: at('progress'),
    completed_by_year: Object.fromEntries(years.map((year) => [year, at(`completed.${year}`)])),
  };
}
