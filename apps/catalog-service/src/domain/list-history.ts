/** At most this many changes are kept per entry (the oldest go first). */
export const MAX_HISTORY_PER_ENTRY = 1000;

export type HistoryField = 'status' | 'score' | 'progress';

export interface HistoryEvent {
  at: Date;
  field: HistoryField;
  from: string | number | null;
  to: string | number | null;
}

type Tracked = Record<HistoryField, string | number | null>;

const TRACKED: readonly HistoryField[] = ['status', 'score', 'progress'];

/**
 * The history events of one write of an entry: each tracked field whose value changed (`before` null: the
 * entry was just added, and every field with a value is an event from null). Oldest first, as they happened.
 */
export function historyEvents(before: Tracked | null, after: Tracked, at: Date): HistoryEvent[] {
  return TRACKED.filter((field) => (before ? before[field] : null) !== after[field]).map((field) => ({
    at,
    field,
    from: before ? before[field] : null,
    to: after[field],
  }));
}

/** The events of one write as an entry's history stores them: newest first, capped. */
export function newestFirst(events: readonly HistoryEvent[]): HistoryEvent[] {
  return [...events].reverse().slice(0, MAX_HISTORY_PER_ENTRY);
}
