import type { HistoryEvent, HistoryField } from './list-history.repository';

type Tracked = Record<HistoryField, string | number | null>;

const TRACKED: readonly HistoryField[] = ['status', 'score', 'progress'];

/**
 * The history events of one write of an entry: each tracked field whose value changed (`before` null: the
 * entry was just added, and every field with a value is an event from null).
 */
export function historyEvents(before: Tracked | null, after: Tracked, at: Date): HistoryEvent[] {
  return TRACKED.filter((field) => (before ? before[field] : null) !== after[field]).map((field) => ({
    at,
    field,
    from: before ? before[field] : null,
    to: after[field],
  }));
}
