import { isApiError, type Category } from '@mt/api-client';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { useSubmit } from '../../api/use-submit';
import { importFromProvider, providerName, providersOf, searchProvider, type ProviderHit } from '../../api/provider-calls';
import { useApi } from '../../app/services';
import { useCategories } from '../../categories/categories';
import { pictureNoun } from '../../categories/labels';
import { FormError } from '../../ui/field';
import { Poster } from '../../ui/poster';
import { Loading } from '../../ui/status';

type Found = { state: 'loading' } | { state: 'done'; hits: ProviderHit[] } | { state: 'error'; error: DescribedError };

/** "TMDB / Open Library": the providers of the categories searched, each named once. */
const providerNames = (categories: readonly Category[]) => [...new Set(categories.flatMap(providersOf))].map(providerName).join(' / ');

/**
 * Works the catalog does not have yet, found on the deployment's metadata providers, each with Add (import
 * into the catalog, then onto the list). Searched when asked, not on every keystroke: the providers' search is
 * rate limited per person (docs/api.md "Metadata providers and images"); once asked, it follows the query.
 */
export function ProviderResults({ q, onListChanged }: { q: string; onListChanged?: () => void }) {
  const { categories } = useCategories();
  const searched = categories.filter((category) => providersOf(category).length > 0);
  const [asked, setAsked] = useState(false);
  if (searched.length === 0 || !q) return null;
  if (!asked)
    return (
      <p>
        <button type="button" className="button" onClick={() => setAsked(true)}>
          Look on {providerNames(searched)}
        </button>
      </p>
    );
  return (
    <>
      {searched.map((category) => (
        <CategoryProviderResults key={category.id} category={category} q={q} onListChanged={onListChanged} />
      ))}
    </>
  );
}

function CategoryProviderResults({ category, q, onListChanged }: { category: Category; q: string; onListChanged?: () => void }) {
  const api = useApi();
  const [found, setFound] = useState<Found>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setFound({ state: 'loading' });
    searchProvider(api, category.id, q, controller.signal).then(
      (answer) => !controller.signal.aborted && setFound({ state: 'done', hits: answer.data.filter((hit) => hit.existing_id === null) }),
      (error: unknown) => !isAbort(error) && !controller.signal.aborted && setFound({ state: 'error', error: describeError(error) }),
    );
    return () => controller.abort();
  }, [api, category.id, q]);

  const headingId = `provider-${category.id}`;
  return (
    <section className="group" aria-labelledby={headingId}>
      <h2 id={headingId} className="group__title">
        {category.display_name}: not in the catalog yet — found on {providerNames([category])}
      </h2>
      {found.state === 'loading' && <Loading label={`Searching ${providerNames([category])}…`} rows={2} />}
      {found.state === 'error' && <FormError error={found.error.message} requestId={found.error.requestId} />}
      {found.state === 'done' && found.hits.length === 0 && <p className="note">Nothing more found there.</p>}
      {found.state === 'done' && found.hits.length > 0 && (
        <ul className="cards">
          {found.hits.map((hit) => (
            <ProviderCard key={`${hit.provider}:${hit.provider_id}`} category={category} hit={hit} onListChanged={onListChanged} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ProviderCard({ category, hit, onListChanged }: { category: Category; hit: ProviderHit; onListChanged?: () => void }) {
  const api = useApi();
  const [added, setAdded] = useState<string | null>(null);
  // Into the catalog (or the entry someone imported meanwhile: a 409 names it), then onto the list.
  const add = useSubmit(async () => {
    let id: string;
    try {
      id = (await importFromProvider(api, category.id, hit)).id;
    } catch (caught) {
      if (!isApiError(caught, 'conflict') || !caught.existingId) throw caught;
      id = caught.existingId;
    }
    try {
      await api.addListEntry(category.id, { item_id: id });
    } catch (caught) {
      if (!isApiError(caught, 'conflict')) throw caught;
    }
    setAdded(id);
    onListChanged?.();
  });

  return (
    <li className="card card--work">
      <Poster work={hit} noun={pictureNoun(category)} />
      <div className="card__body">
        {added ? (
          <Link href={`/${category.id}/${added}`} className="card__title">
            {hit.title}
          </Link>
        ) : (
          <span className="card__title">{hit.title}</span>
        )}
        <span className="card__meta">
          {hit.year ?? 'Year unknown'} · {providerName(hit.provider)}
        </span>
        {hit.overview && <p className="card__overview">{hit.overview}</p>}
        {added ? (
          <span className="badge">Added to your list</span>
        ) : (
          <button type="button" className="button button--small" onClick={() => void add.submit()} disabled={add.pending} aria-label={`Add ${hit.title} to my list`}>
            {add.pending ? 'Adding…' : 'Add'}
          </button>
        )}
        <FormError error={add.error?.message} requestId={add.error?.requestId} />
      </div>
    </li>
  );
}
