import type { SearchHit, SearchResults } from '@mt/api-client';
import { DEFAULT_LIST_STATUS } from '@mt/domain';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { searchEverywhere } from '../../api/home-calls';
import { useSubmit } from '../../api/use-submit';
import { useApi, useSession } from '../../app/services';
import { useCategories } from '../../categories/categories';
import { pictureNoun, statusLabel } from '../../categories/labels';
import { FormError, LoadError } from '../../ui/field';
import { Poster } from '../../ui/poster';
import { EmptyState, Loading } from '../../ui/status';
import { useDebounced } from '../../ui/use-debounced';
import { SEARCH_DEBOUNCE_MS } from '../catalog/search-screen';
import { ProviderResults } from './provider-results';

type Results = { state: 'idle' } | { state: 'loading' } | { state: 'done'; value: SearchResults } | { state: 'error'; error: DescribedError };

/** One search box over every category (GET /api/v1/search): results grouped by category, what is on the list marked. */
export function SearchEverywhere({ onListChanged }: { onListChanged?: () => void }) {
  const api = useApi();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const query = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const [results, setResults] = useState<Results>({ state: 'idle' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if ((params.get('q') ?? '') !== query) setParams(query ? { q: query } : {}, { replace: true });
  }, [query, params, setParams]);

  useEffect(() => {
    if (!query) {
      setResults({ state: 'idle' });
      return;
    }
    const controller = new AbortController();
    setResults({ state: 'loading' });
    searchEverywhere(api, query, controller.signal).then(
      (value) => !controller.signal.aborted && setResults({ state: 'done', value }),
      (caught: unknown) => {
        if (!isAbort(caught) && !controller.signal.aborted) setResults({ state: 'error', error: describeError(caught) });
      },
    );
    return () => controller.abort();
  }, [api, query, attempt]);

  return (
    <div className="everywhere">
      <form role="search" className="search" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="everywhere-input">
          Search films, shows and books
        </label>
        <input
          id="everywhere-input"
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="A title, or the start of a word"
          autoComplete="off"
          maxLength={200}
        />
      </form>
      <div aria-live="polite" aria-busy={results.state === 'loading'}>
        {results.state === 'loading' && <Loading label="Searching every category…" rows={3} />}
        {results.state === 'error' && <LoadError error={results.error} onRetry={() => setAttempt((n) => n + 1)} />}
        {results.state === 'done' && <Groups results={results.value} signedIn={Boolean(session)} onListChanged={onListChanged} />}
        {/* Mounted while the next query loads: once asked, the providers follow the query. */}
        {session && <ProviderResults q={results.state === 'done' ? results.value.q : ''} onListChanged={onListChanged} />}
      </div>
    </div>
  );
}

function Groups({ results, signedIn, onListChanged }: { results: SearchResults; signedIn: boolean; onListChanged?: () => void }) {
  const found = results.groups.filter((group) => group.results.length > 0);
  return (
    <div className="groups">
      {results.unavailable.length > 0 && (
        <p className="note">Not searched right now: {results.unavailable.map((u) => u.category).join(', ')} (the service is not answering).</p>
      )}
      {found.length === 0 && <EmptyState title={`Nothing matches “${results.q}”.`}>{signedIn && <AddNewLinks q={results.q} />}</EmptyState>}
      {found.map((group) => (
        <section key={group.category} className="group" aria-labelledby={`group-${group.category}`}>
          <h2 id={`group-${group.category}`} className="group__title">
            {group.display_name} <span className="group__count">({group.total})</span>
          </h2>
          <ul className="cards">
            {group.results.map((hit) => (
              <HitCard key={hit.id} category={group.category} hit={hit} signedIn={signedIn} onListChanged={onListChanged} />
            ))}
          </ul>
          {group.total > group.results.length && (
            <Link href={`/${group.category}?q=${encodeURIComponent(results.q)}`}>
              All {group.total} in {group.display_name}
            </Link>
          )}
        </section>
      ))}
    </div>
  );
}

function AddNewLinks({ q }: { q: string }) {
  const { categories } = useCategories();
  return (
    <p>
      Add it to the catalog:{' '}
      {categories.map((category, index) => (
        <span key={category.id}>
          {index > 0 && ' · '}
          <Link href={`/${category.id}/new?title=${encodeURIComponent(q)}`}>{category.display_name}</Link>
        </span>
      ))}
    </p>
  );
}

function HitCard({ category: categoryId, hit, signedIn, onListChanged }: { category: string; hit: SearchHit; signedIn: boolean; onListChanged?: () => void }) {
  const api = useApi();
  const { categories } = useCategories();
  const category = categories.find((c) => c.id === categoryId);
  const [onList, setOnList] = useState(hit.on_list);
  const add = useSubmit(async () => {
    const entry = await api.addListEntry(categoryId, { item_id: hit.id });
    setOnList({ status: entry.status, progress: entry.progress, score: entry.score });
    onListChanged?.();
  });

  return (
    <li className="card card--work">
      <Poster work={hit} noun={pictureNoun(category)} />
      <div className="card__body">
        <Link href={`/${categoryId}/${hit.id}`} className="card__title">
          {hit.title}
        </Link>
        <span className="card__meta">{hit.year ?? 'Year unknown'}</span>
        {onList && (
          <span className="badge">
            On your list · {statusLabel(category, onList.status)}
          </span>
        )}
        {!onList && signedIn && (
          <button type="button" className="button button--small" onClick={() => void add.submit()} disabled={add.pending}>
            {add.pending ? 'Adding…' : `Add · ${statusLabel(category, DEFAULT_LIST_STATUS)}`}
          </button>
        )}
        <FormError error={add.error?.message} requestId={add.error?.requestId} />
      </div>
    </li>
  );
}
