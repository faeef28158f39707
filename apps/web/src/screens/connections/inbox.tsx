import type { CatalogEntry } from '@mt/api-client';
import { useEffect, useState } from 'react';
import { searchCatalog } from '../../api/catalog-calls';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { dismissInboxEntry, listInbox, resolveInboxEntry, type InboxEntry, type Server } from '../../api/hook-calls';
import { episodeCode } from '../../api/play-calls';
import { useSubmit } from '../../api/use-submit';
import { useApi, useServices } from '../../app/services';
import { FormError, LoadError } from '../../ui/field';
import { formatTime } from '../../ui/format-time';
import { Loading } from '../../ui/status';
import { useDebounced } from '../../ui/use-debounced';
import { SEARCH_DEBOUNCE_MS } from '../catalog/search-screen';
import { SERVER_GUIDES } from './server-guides';

type Loaded = { state: 'loading' } | { state: 'done'; entries: InboxEntry[] } | { state: 'error'; error: DescribedError };

const CANDIDATES = 5;

/**
 * What a media server played that no catalog entry matched: resolve it by picking the entry (its waiting
 * plays are recorded and the hook remembers the choice), or dismiss it.
 */
export function Inbox({ server }: { server?: Server }) {
  const api = useApi();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    listInbox(api, controller.signal).then(
      (entries) => !controller.signal.aborted && setLoaded({ state: 'done', entries }),
      (error: unknown) => !isAbort(error) && !controller.signal.aborted && setLoaded({ state: 'error', error: describeError(error) }),
    );
    return () => controller.abort();
  }, [api, reloads]);
  const entries = loaded.state === 'done' ? loaded.entries.filter((entry) => !server || entry.server === server) : [];
  const drop = (id: string) => setLoaded((l) => (l.state === 'done' ? { state: 'done', entries: l.entries.filter((e) => e.id !== id) } : l));

  return (
    <section className="connections__section" aria-labelledby="inbox-title">
      <h2 id="inbox-title">Not matched yet</h2>
      {loaded.state === 'loading' && <Loading rows={2} label="Loading what was not matched…" />}
      {loaded.state === 'error' && <LoadError error={loaded.error} onRetry={() => setReloads((n) => n + 1)} />}
      {loaded.state === 'done' && entries.length === 0 && <p className="note">Nothing waiting: every play received so far matched an entry of the catalog.</p>}
      {entries.length > 0 && (
        <ul className="list">
          {entries.map((entry) => (
            <InboxRow key={entry.id} entry={entry} onGone={() => drop(entry.id)} />
          ))}
        </ul>
      )}
    </section>
  );
}

const described = (entry: InboxEntry) =>
  `${entry.title ?? 'Untitled'}${entry.year ? ` (${entry.year})` : ''}${entry.season !== null ? ` ${episodeCode(entry)}` : ''}`;

function InboxRow({ entry, onGone }: { entry: InboxEntry; onGone: () => void }) {
  const api = useApi();
  const { notices } = useServices();
  const [picking, setPicking] = useState(false);
  const dismiss = useSubmit(async () => {
    await dismissInboxEntry(api, entry.id);
    onGone();
  });
  const resolve = useSubmit(async (item: CatalogEntry) => {
    const { recorded } = await resolveInboxEntry(api, entry.id, item.id);
    onGone();
    notices.show({ text: `“${described(entry)}” is “${item.title}” now: ${recorded === 1 ? '1 play' : `${recorded} plays`} recorded.`, tone: 'info' });
  });
  const ids = Object.entries(entry.external_ids).filter(([, value]) => value);

  return (
    <li className="inbox-row">
      <div>
        <strong>{described(entry)}</strong>
        <p className="card__meta">
          From {SERVER_GUIDES[entry.server].name} · {entry.count === 1 ? '1 play waiting' : `${entry.count} plays waiting`} · last {formatTime(entry.last_seen_at)}
          {ids.length > 0 && ` · ${ids.map(([key, value]) => `${key.toUpperCase()} ${value}`).join(', ')}`}
        </p>
      </div>
      <div className="inbox-row__actions">
        <button type="button" className="button button--small" aria-expanded={picking} onClick={() => setPicking((p) => !p)} aria-label={`Resolve ${described(entry)}`}>
          Resolve
        </button>
        <button type="button" className="button button--small" disabled={dismiss.pending} onClick={() => void dismiss.submit()} aria-label={`Dismiss ${described(entry)}`}>
          Dismiss
        </button>
      </div>
      {picking && <Picker entry={entry} busy={resolve.pending} onPick={(item) => void resolve.submit(item)} />}
      <FormError error={(resolve.error ?? dismiss.error)?.message} requestId={(resolve.error ?? dismiss.error)?.requestId} />
    </li>
  );
}

/** A search of the entry's category, its title to start with: the person picks the work it was. */
function Picker({ entry, busy, onPick }: { entry: InboxEntry; busy: boolean; onPick: (item: CatalogEntry) => void }) {
  const api = useApi();
  const [text, setText] = useState(entry.title ?? '');
  const q = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const [found, setFound] = useState<{ state: 'loading' } | { state: 'done'; items: CatalogEntry[] } | { state: 'error'; error: DescribedError }>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setFound({ state: 'loading' });
    searchCatalog(api, entry.category, { q: q || undefined, limit: CANDIDATES }, controller.signal).then(
      (page) => !controller.signal.aborted && setFound({ state: 'done', items: page.data }),
      (error: unknown) => !isAbort(error) && !controller.signal.aborted && setFound({ state: 'error', error: describeError(error) }),
    );
    return () => controller.abort();
  }, [api, entry.category, q]);
  const inputId = `pick-${entry.id}`;
  return (
    <div className="picker">
      <label htmlFor={inputId}>{entry.category === 'tvshows' ? 'Which show is it?' : 'Which film is it?'}</label>
      <input id={inputId} type="search" value={text} onChange={(event) => setText(event.target.value)} autoComplete="off" maxLength={200} />
      {found.state === 'loading' && <Loading rows={1} label="Searching the catalog…" />}
      {found.state === 'error' && <FormError error={found.error.message} requestId={found.error.requestId} />}
      {found.state === 'done' && found.items.length === 0 && <p className="note">Nothing in the catalog by that name. Add it to the catalog first, then pick it here.</p>}
      {found.state === 'done' && found.items.length > 0 && (
        <ul className="picker__choices">
          {found.items.map((item) => (
            <li key={item.id}>
              <button type="button" className="button button--small" disabled={busy} onClick={() => onPick(item)}>
                {item.title}
                {item.year !== null && ` (${item.year})`}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
