import { LIST_STATUSES, type ListStatus } from '@mt/domain';
import type { ImportEntry } from '../model';
import { toCalendarDate } from '../normalise/dates';

/** The list fields of this API's own exports, as read from a JSON entry or a CSV row. */
export interface OwnEntryFields {
  readonly status: unknown;
  readonly score: unknown;
  readonly progress: unknown;
  readonly notes: unknown;
  readonly started_at: unknown;
  readonly finished_at: unknown;
}

const empty = (value: unknown): boolean => value === null || value === undefined || value === '';

function integerOf(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
}

/**
 * The entry of a row of our own export, validated as strictly as the list endpoints: these values were
 * written by this API, so one that does not fit (a hand-edited file) fails the row rather than being guessed.
 */
export function ownEntry(fields: OwnEntryFields): ImportEntry | string {
  const status = empty(fields.status) ? 'plan_to_watch' : fields.status;
  if (typeof status !== 'string' || !(LIST_STATUSES as readonly string[]).includes(status)) {
    return `status must be one of ${LIST_STATUSES.join(', ')}`;
  }
  const score = empty(fields.score) ? null : integerOf(fields.score);
  if (score === undefined || (score !== null && (score < 1 || score > 10)))
    return 'score must be an integer from 1 to 10, or empty';
  const progress = empty(fields.progress) ? null : integerOf(fields.progress);
  if (progress === undefined) return 'progress must be an integer of at least 0, or empty';
  if (!empty(fields.notes) && typeof fields.notes !== 'string') return 'notes must be text';
  const dates: Record<'started_at' | 'finished_at', string | null> = { started_at: null, finished_at: null };
  for (const field of ['started_at', 'finished_at'] as const) {
    const value = fields[field];
    if (empty(value)) continue;
    const date =
      typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())
        ? toCalendarDate(value)
        : undefined;
    if (date === undefined) return `${field} must be a date YYYY-MM-DD, or empty`;
    dates[field] = date;
  }
  if (dates.started_at !== null && dates.finished_at !== null && dates.finished_at < dates.started_at) {
    return `finished_at (${dates.finished_at}) is before started_at (${dates.started_at})`;
  }
  return {
    status: status as ListStatus,
    score,
    progress,
    // Kept exactly as exported (the list stores notes untrimmed).
    notes: typeof fields.notes === 'string' && fields.notes !== '' ? fields.notes : null,
    ...dates,
  };
}
