import { PLAY_PRECISIONS, type ImportPlay, type PlayPrecision } from '../model';
import { toInstant } from '../normalise/dates';

/** The members of a play in this API's exports (JSON `plays[]`, CSV `rows=plays`), as read from the file. */
export interface OwnPlayFields {
  readonly season: unknown;
  readonly number: unknown;
  readonly watched_at: unknown;
  readonly precision: unknown;
  readonly cycle: unknown;
  readonly source: unknown;
}

/** The members every exported play has, in the order the exports write them. */
export const OWN_PLAY_FIELDS = ['season', 'number', 'watched_at', 'precision', 'cycle', 'source'] as const;

const SOURCE = /^(manual|(import|scrobble):[a-z0-9][a-z0-9._-]{0,63})$/;

const empty = (value: unknown): boolean => value === null || value === undefined || value === '';

function integerOf(value: unknown, min: number, max: number): number | undefined {
  const number = typeof value === 'string' && /^\s*\d{1,6}\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= min && number <= max
    ? number
    : undefined;
}

/**
 * One exported play, validated as strictly as the entry it belongs to (our own file: a value that does not
 * fit fails the row rather than being guessed). `precision` says whether `watched_at` is set: empty exactly
 * when it is `unknown`.
 */
export function ownPlay(fields: OwnPlayFields): ImportPlay | string {
  const noEpisode = empty(fields.season) && empty(fields.number);
  const season = noEpisode ? null : integerOf(fields.season, 0, 10_000);
  const number = noEpisode ? null : integerOf(fields.number, 1, 10_000);
  if (season === undefined || number === undefined)
    return 'a play needs both season (0–10000) and number (1–10000), or neither';
  const precision = fields.precision;
  if (typeof precision !== 'string' || !(PLAY_PRECISIONS as readonly string[]).includes(precision))
    return `a play's precision must be one of ${PLAY_PRECISIONS.join(', ')}`;
  const watchedAt = typeof fields.watched_at === 'string' ? toInstant(fields.watched_at) : undefined;
  if (precision === 'unknown' ? !empty(fields.watched_at) : watchedAt === undefined)
    return "a play's watched_at must be a date-time, and empty exactly when its precision is unknown";
  const cycle = empty(fields.cycle) ? undefined : integerOf(fields.cycle, 1, 100_000);
  if (cycle === undefined && !empty(fields.cycle))
    return "a play's cycle must be a whole number of at least 1";
  if (!empty(fields.source) && (typeof fields.source !== 'string' || !SOURCE.test(fields.source)))
    return "a play's source must be manual, import:<source> or scrobble:<server>";
  return {
    season,
    number,
    watched_at: watchedAt ?? null,
    precision: precision as PlayPrecision,
    ...(cycle === undefined ? {} : { cycle }),
    ...(typeof fields.source === 'string' && fields.source !== '' ? { source: fields.source } : {}),
  };
}
