/** The vocabulary of plays: when a viewing happened, and how precisely that is known. */
import { errors } from '@mt/errors';

export const PLAY_PRECISIONS = ['exact', 'day', 'unknown', 'release'] as const;
export type PlayPrecision = (typeof PLAY_PRECISIONS)[number];

export const MAX_SOURCE_EVENT_ID = 200;
export const MAX_BATCH_ITEMS = 500;
export const MAX_BATCH_PLAYS = 10_000;
export const MAX_PLAYS_PAGE = 100;
export const DEFAULT_PLAYS_PAGE = 20;
/** A clock a little ahead of ours still records "now"; a play further in the future is refused. */
export const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

/** `watched_at` as a request gives it: an instant, a calendar date, or one of the words. */
export type WatchedAtInput = string;

/** When a play happened, resolved. */
export interface PlayTime {
  watchedAt: Date | null;
  precision: PlayPrecision;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Resolves a request's `watched_at` for one play: `release` needs the release date of what was played (an
 * episode's air date, a work's 1 January of its year); `path` names the field in a 400.
 */
export function resolvePlayTime(input: WatchedAtInput | undefined, now: Date, release: () => string | null, path = 'watched_at'): PlayTime {
  const value = input ?? 'now';
  if (value === 'now') return { watchedAt: now, precision: 'exact' };
  if (value === 'unknown') return { watchedAt: null, precision: 'unknown' };
  if (value === 'release') {
    const date = release();
    if (date === null) throw errors.validation('the release date is not known', [{ path, message: 'release: the release date of what was played is not known' }]);
    return { watchedAt: new Date(`${date}T00:00:00.000Z`), precision: 'release' };
  }
  const at = DATE.test(value) ? new Date(`${value}T00:00:00.000Z`) : new Date(value);
  if (at.getTime() > now.getTime() + FUTURE_TOLERANCE_MS) throw errors.validation('a play cannot be in the future', [{ path, message: 'must not be in the future' }]);
  return { watchedAt: at, precision: DATE.test(value) ? 'day' : 'exact' };
}

/** The calendar date a play gives the entry's dates: its own, or today when unknown. */
export const playDate = (watchedAt: Date | null, today: string): string => (watchedAt ? watchedAt.toISOString().slice(0, 10) : today);

/** A work's release date for `release` plays: 1 January of its year. */
export const yearRelease = (year: number | null): string | null => (year === null ? null : `${String(year).padStart(4, '0')}-01-01`);

/** Plays of one episode (or of the whole work: `null`) compare by this key. */
export const episodeKey = (season: number | null, number: number | null): string => (season === null ? 'work' : `${season}x${number}`);
