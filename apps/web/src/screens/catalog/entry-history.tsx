import type { Category, ListStatus } from '@mt/api-client';
import { useEffect, useId, useState } from 'react';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { getHistory, type HistoryEvent } from '../../api/list-io-calls';
import { useApi } from '../../app/services';
import { progressUnit, statusLabel } from '../../categories/labels';
import { FormError } from '../../ui/field';
import { formatTime } from '../../ui/format-time';
import { Loading } from '../../ui/status';

type Loaded = { state: 'loading' } | { state: 'done'; events: HistoryEvent[] } | { state: 'error'; error: DescribedError };

const FIELD_NAMES: Record<HistoryEvent['field'], string> = { status: 'Status', score: 'Score', progress: 'Progress' };

/** One change in words: "Status: Planned → Completed", "Score set to 8", "Progress: 3 → 5 episodes". */
export function describeChange(event: HistoryEvent, category: Category): string {
  const value = (v: HistoryEvent['from']) => {
    if (v === null) return 'none';
    if (event.field === 'status') return statusLabel(category, v as ListStatus);
    return String(v);
  };
  const unit = event.field === 'progress' ? progressUnit(category) : undefined;
  const suffix = unit ? ` ${unit}` : '';
  if (event.from === null) return `${FIELD_NAMES[event.field]} set to ${value(event.to)}${event.to === null ? '' : suffix}`;
  if (event.to === null) return `${FIELD_NAMES[event.field]} cleared (was ${value(event.from)}${suffix})`;
  return `${FIELD_NAMES[event.field]}: ${value(event.from)} → ${value(event.to)}${suffix}`;
}


/** The status, score and progress changes of one list entry, newest first (docs/api.md "Your list in a category"). */
export function EntryHistory({ category, itemId, version, level = 2 }: { category: Category; itemId: string; version: string; level?: 2 | 3 }) {
  const api = useApi();
  const headingId = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    getHistory(api, category.id, itemId, controller.signal).then(
      (events) => !controller.signal.aborted && setLoaded({ state: 'done', events }),
      (error: unknown) => !isAbort(error) && !controller.signal.aborted && setLoaded({ state: 'error', error: describeError(error) }),
    );
    return () => controller.abort();
    // `version` (the entry's updated_at) reloads the history after a change made on this page.
  }, [api, category.id, itemId, version]);

  return (
    <section className="history" aria-labelledby={headingId}>
      <Heading id={headingId}>History</Heading>
      {loaded.state === 'loading' && <Loading rows={2} label="Loading the history…" />}
      {loaded.state === 'error' && <FormError error={loaded.error.message} requestId={loaded.error.requestId} />}
      {loaded.state === 'done' && loaded.events.length === 0 && <p className="note">No changes recorded yet.</p>}
      {loaded.state === 'done' && loaded.events.length > 0 && (
        <ol className="timeline">
          {loaded.events.map((event, at) => (
            <li key={`${event.at}-${event.field}-${at}`} className="timeline__item">
              <time dateTime={event.at} className="timeline__time">
                {formatTime(event.at)}
              </time>{' '}
              <span>{describeChange(event, category)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
