import type { ErrorDetail } from '@mt/errors';
import type { ListStatus } from './list-entry';

export interface ListDates {
  started_at: string | null;
  finished_at: string | null;
}

/** Today's calendar date in UTC, `YYYY-MM-DD`. */
export const utcToday = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * Setting the status (on add, patch or bulk) to `watching` fills an empty `started_at` with
 * today, to `completed` an empty `finished_at`; other changes leave the dates alone.
 */
export function withStatusDates(dates: ListDates, statusSet: ListStatus | undefined, today: string): ListDates {
  return {
    started_at: statusSet === 'watching' && dates.started_at === null ? today : dates.started_at,
    finished_at: statusSet === 'completed' && dates.finished_at === null ? today : dates.finished_at,
  };
}

/** `finished_at` before `started_at` is refused (ISO dates compare as strings). */
export function datesProblem(dates: ListDates, path = 'finished_at'): ErrorDetail | undefined {
  if (dates.started_at !== null && dates.finished_at !== null && dates.finished_at < dates.started_at) {
    return { path, message: `finished_at (${dates.finished_at}) is before started_at (${dates.started_at})` };
  }
  return undefined;
}
