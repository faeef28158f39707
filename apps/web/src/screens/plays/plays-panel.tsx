import type { Category, ListEntry } from '@mt/api-client';
import { useEffect, useState } from 'react';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { addPlays, deletePlay, fetchItemPlays, startRewatch, type Play, type WatchedAt } from '../../api/play-calls';
import { useSubmit } from '../../api/use-submit';
import { useApi, useServices } from '../../app/services';
import { playWords } from '../../categories/labels';
import { Field, FormError, LoadError } from '../../ui/field';
import { tracksEpisodes } from './play-actions';
import { playDate } from './play-date';

type When = 'today' | 'date' | 'unknown';

/** The person's local calendar day: "today" is theirs, not UTC's. */
const localToday = () => {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
};

const REWATCHABLE = new Set<ListEntry['status']>(['completed', 'dropped']);

/**
 * What the person did with a work, as plays: "I watched it" (today, on a date, or when unknown) for a film
 * or a book, "Watch again" to start a new cycle, and the plays recorded so far with a way to delete one.
 */
export function PlaysPanel(props: { category: Category; entry: ListEntry; onEntryChange: (entry: ListEntry) => void }) {
  const { category, entry, onEntryChange } = props;
  const api = useApi();
  const { notices } = useServices();
  const words = playWords(category);
  const [when, setWhen] = useState<When>('today');
  const [date, setDate] = useState('');
  const [plays, setPlays] = useState<{ state: 'loading' } | { state: 'done'; value: Play[] } | { state: 'error'; error: DescribedError }>({ state: 'loading' });
  const [reloads, setReloads] = useState(0);
  const episodic = tracksEpisodes(category);

  useEffect(() => {
    if (episodic) return;
    const controller = new AbortController();
    fetchItemPlays(api, category.id, entry.item_id, undefined, controller.signal).then(
      (page) => !controller.signal.aborted && setPlays({ state: 'done', value: page.data }),
      (error: unknown) => !isAbort(error) && !controller.signal.aborted && setPlays({ state: 'error', error: describeError(error) }),
    );
    return () => controller.abort();
  }, [api, category.id, entry.item_id, entry.updated_at, episodic, reloads]);

  const record = useSubmit(
    async () => {
      const watchedAt: WatchedAt = when === 'today' ? localToday() : when === 'unknown' ? 'unknown' : date;
      await addPlays(api, category.id, entry.item_id, { watched_at: watchedAt });
      onEntryChange(await api.getListEntry(category.id, entry.item_id));
      notices.show({ text: `Recorded: ${words.past} ${when === 'unknown' ? '(date unknown)' : `on ${watchedAt}`}.`, tone: 'info' });
    },
    { fields: ['watched_at'] },
  );
  const rewatch = useSubmit(async () => {
    onEntryChange(await startRewatch(api, category.id, entry.item_id));
    notices.show({ text: `${words.again}: started.`, tone: 'info' });
  });
  const remove = useSubmit(async (play: Play) => {
    await deletePlay(api, category.id, entry.item_id, play.id);
    onEntryChange(await api.getListEntry(category.id, entry.item_id));
    setReloads((n) => n + 1);
  });

  return (
    <section className="plays" aria-labelledby="plays-title">
      <h2 id="plays-title">{episodic ? 'Watching again' : `When I ${words.past} it`}</h2>
      {!episodic && (
        <form
          className="plays__form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void record.submit();
          }}
        >
          <fieldset className="plays__when">
            <legend>When</legend>
            {(
              [
                ['today', 'Today'],
                ['date', 'On a date'],
                ['unknown', 'I don’t know'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="plays__choice">
                <input type="radio" name="when" value={value} checked={when === value} onChange={() => setWhen(value)} /> {label}
              </label>
            ))}
          </fieldset>
          {when === 'date' && (
            <Field label="Date" name="watched_at" error={record.fields['watched_at']}>
              {(control) => <input {...control} type="date" value={date} max={localToday()} onChange={(event) => setDate(event.target.value)} required />}
            </Field>
          )}
          <button type="submit" className="button button--primary" disabled={record.pending || (when === 'date' && !date)}>
            I {words.past} it
          </button>
          <FormError error={record.error?.message} requestId={record.error?.requestId} />
        </form>
      )}
      {REWATCHABLE.has(entry.status) ? (
        <p>
          <button type="button" className="button" disabled={rewatch.pending} onClick={() => void rewatch.submit()}>
            {words.again}
          </button>
        </p>
      ) : (
        episodic && <p className="note">Once you have finished it (or dropped it), “{words.again}” starts over from the first episode; your earlier plays stay in the diary.</p>
      )}
      <FormError error={rewatch.error?.message} requestId={rewatch.error?.requestId} />
      {!episodic && plays.state === 'error' && <LoadError error={plays.error} onRetry={() => setReloads((n) => n + 1)} />}
      {!episodic && plays.state === 'done' && plays.value.length > 0 && (
        <ul className="plays__list" aria-label={`Times ${words.past}`}>
          {plays.value.map((play) => (
            <li key={play.id} className="plays__item">
              <span>
                {playDate(play)}
                {play.cycle > 1 && <span className="card__meta"> · time {play.cycle}</span>}
              </span>
              <button type="button" className="button button--small" disabled={remove.pending} onClick={() => void remove.submit(play)} aria-label={`Delete the play of ${playDate(play)}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <FormError error={remove.error?.message} requestId={remove.error?.requestId} />
    </section>
  );
}
