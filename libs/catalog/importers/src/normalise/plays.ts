import type { ImportPlay, PlayPrecision } from '../model';
import { toCalendarDate, toInstant } from './dates';

/** Which episode a play is of; both null for a movie, a book or a whole show. */
export interface PlayedEpisode {
  readonly season: number | null;
  readonly number: number | null;
}

export const NO_EPISODE: PlayedEpisode = { season: null, number: null };

/**
 * When a play happened, from a source's cell: a timestamp is `exact`, a calendar date `day` (00:00 UTC of
 * it), empty or not a date `unknown` — the viewing still happened, so the play is kept either way.
 */
export function playTime(raw: string | null | undefined): Pick<ImportPlay, 'watched_at' | 'precision'> {
  const text = raw?.trim() ?? '';
  const instant = toInstant(text);
  if (instant !== undefined) return { watched_at: instant, precision: 'exact' };
  const day = toCalendarDate(text);
  if (day !== undefined) return { watched_at: `${day}T00:00:00.000Z`, precision: 'day' };
  return UNKNOWN_TIME;
}

const UNKNOWN_TIME = { watched_at: null, precision: 'unknown' as PlayPrecision };

/**
 * The plays of one row, bounded while they are added: sources expand play counts (Trakt's `plays`,
 * Goodreads' Read Count) into plays, so a count of a billion must cost no more than the limit.
 */
export class RowPlays {
  readonly plays: ImportPlay[] = [];
  private total = 0;

  constructor(private readonly limit: number) {}

  add(play: ImportPlay): void {
    this.total += 1;
    if (this.plays.length < this.limit) this.plays.push(play);
  }

  /**
   * `count` plays of which only the latest's time is known (`latest`): the others come first, their time
   * `unknown`, since the source keeps one date per work or episode.
   */
  addCounted(
    count: number,
    episode: PlayedEpisode,
    latest: Pick<ImportPlay, 'watched_at' | 'precision'>,
  ): void {
    if (!Number.isSafeInteger(count) || count < 1) return;
    const room = Math.max(0, this.limit - this.plays.length);
    for (let i = 1; i < Math.min(count, room); i++) this.plays.push({ ...episode, ...UNKNOWN_TIME });
    this.total += count - 1;
    this.add({ ...episode, ...latest });
  }

  /** Why the row fails, when it has more plays than a row may have. */
  get overLimit(): string | undefined {
    return this.total > this.limit
      ? `the row has ${this.total} plays, more than the ${this.limit} one entry may have`
      : undefined;
  }
}
