import type { CatalogEntry, Category } from '@mt/api-client';
import { Fragment, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'wouter';
import { searchCatalog, type CursorPage } from '../../api/catalog-calls';
import { fetchListMarks, type ListMarks } from '../../api/home-calls';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { ScreenTitle } from '../../app/screen-title';
import { useApi, useSession } from '../../app/services';
import { useCategory } from '../../categories/categories';
import { CategoryNav } from '../../categories/category-nav';
import { categoryWords, entryNoun, pictureNoun, statusLabel } from '../../categories/labels';
import { LoadError } from '../../ui/field';
import { Pager } from '../../ui/pager';
import { Poster } from '../../ui/poster';
import { EmptyState, Loading } from '../../ui/status';
import { useDebounced } from '../../ui/use-debounced';
import { NotFoundScreen } from '../not-found-screen';
import { hasNextPage, usePaging } from './use-paging';

export const PAGE_SIZE = 20;
/** Long enough to skip the keystrokes of a word, short enough to feel immediate. */
export const SEARCH_DEBOUNCE_MS = 250;
/** The most ids one marks request takes (docs/api.md "Your home and one search"): a page of results. */
const SEARCH_MARKS_MAX = 20;

/** `shown` numbers each result set: a new one is drawn as new nodes, so nothing already on screen moves. */
type Results =
  | { state: 'loading'; page?: CursorPage<CatalogEntry>; shown: number }
  | { state: 'done'; page: CursorPage<CatalogEntry>; shown: number }
  | { state: 'error'; error: DescribedError; page?: CursorPage<CatalogEntry>; shown: number };

export function SearchScreen() {
  const { category: categoryId } = useParams<{ category: string }>();
  const category = useCategory(categoryId);
  const api = useApi();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const query = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const paging = usePaging(`${categoryId}\u0000${query}`);
  const [results, setResults] = useState<Results>({ state: 'loading', shown: 0 });
  const [attempt, setAttempt] = useState(0);
  /** Which results are on the person's list, for the page they were asked for (a failure only costs the marks). */
  const [marks, setMarks] = useState<{ page?: CursorPage<CatalogEntry>; value: ListMarks }>({ value: {} });
  const shownPage = results.state === 'done' ? results.page : undefined;
  useEffect(() => {
    if (!session || !category || !shownPage) return;
    const controller = new AbortController();
    fetchListMarks(api, category.id, shownPage.data.map((entry) => entry.id).slice(0, SEARCH_MARKS_MAX), controller.signal).then(
      (value) => !controller.signal.aborted && setMarks({ page: shownPage, value }),
      () => undefined,
    );
    return () => controller.abort();
  }, [api, session, category, shownPage]);

  // The query lives in the URL too: reload, back and a shared link show the same search.
  useEffect(() => {
    if ((params.get('q') ?? '') !== query) setParams(query ? { q: query } : {}, { replace: true });
  }, [query, params, setParams]);

  useEffect(() => {
    if (!category) return;
    const controller = new AbortController();
    setResults((r) => ({ ...r, state: 'loading' }) as Results);
    searchCatalog(api, category.id, { q: query || undefined, limit: PAGE_SIZE, ...paging.position }, controller.signal).then(
      (page) => {
        if (!controller.signal.aborted) setResults((r) => ({ state: 'done', page, shown: r.shown + 1 }));
      },
      (error: unknown) => {
        if (!isAbort(error) && !controller.signal.aborted) setResults((r) => ({ state: 'error', error: describeError(error), page: r.page, shown: r.shown }));
      },
    );
    // A newer query or page supersedes this one: cancel it.
    return () => controller.abort();
  }, [api, category, query, paging.position, attempt]);

  if (!category) return <NotFoundScreen what="category" loadingCategories />;
  const noun = entryNoun(category);
  const markOf = (id: string) => (marks.page === results.page ? marks.value[id] : undefined);
  const page = results.page;
  const busy = results.state === 'loading';

  return (
    <section>
      <ScreenTitle title={category.display_name}>{category.display_name}</ScreenTitle>
      <CategoryNav category={category} />
      <form role="search" className="search" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="search-input">Search {categoryWords(category)}</label>
        <input
          id="search-input"
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Title or the start of a word"
          autoComplete="off"
          maxLength={200}
        />
      </form>
      <div className="results" aria-busy={busy}>
        {results.state === 'error' && (
          <LoadError error={results.error} onRetry={() => setAttempt((n) => n + 1)} />
        )}
        {!page && busy && <Loading label={`Searching ${categoryWords(category)}…`} rows={6} />}
        {page && page.total === 0 && (
          <EmptyState title={query ? `No ${categoryWords(category)} match “${query}”.` : `No ${categoryWords(category)} in the catalog yet.`}>
            {session ? (
              <Link href={`/${category.id}/new${query ? `?title=${encodeURIComponent(query)}` : ''}`} className="button button--primary">
                Add a {noun}
              </Link>
            ) : (
              <p>
                <Link href={`/login?next=${encodeURIComponent(`/${category.id}/new`)}`}>Log in</Link> to add one.
              </p>
            )}
          </EmptyState>
        )}
        {page && page.total > 0 && (
          // A new result set is new nodes: a result that stays (The Matrix) never slides up the screen.
          <Fragment key={results.shown}>
            <p className="results__count" aria-live="polite">
              {page.total === 1 ? `1 ${noun}` : `${page.total} ${categoryWords(category)}`}
              {query ? ` matching “${query}”` : ''}
            </p>
            <ul className={`cards${busy ? ' cards--stale' : ''}`}>
              {page.data.map((entry) => (
                <li key={entry.id} className="card card--work">
                  <Poster work={entry} noun={pictureNoun(category)} />
                  <div className="card__body">
                    <Link href={`/${category.id}/${entry.id}`} className="card__title">
                      {entry.title}
                    </Link>
                    <span className="card__meta">
                      {entry.year ?? 'Year unknown'}
                      {entry.genres.length > 0 && ` · ${entry.genres.join(', ')}`}
                    </span>
                    <ListMarkBadge category={category} mark={markOf(entry.id)} />
                  </div>
                </li>
              ))}
            </ul>
            <Pager
              label="Search results pages"
              summary={`Page ${paging.pageNumber} of ${Math.max(page.total_pages, 1)}`}
              hasPrevious={paging.hasPrevious}
              hasNext={hasNextPage(page)}
              onPrevious={paging.previous}
              onNext={() => paging.next(page)}
            />
          </Fragment>
        )}
      </div>
    </section>
  );
}

/** "On your list · Watching" on a result that is on the person's list. */
function ListMarkBadge({ category, mark }: { category: Category; mark: ListMarks[string] | undefined }) {
  if (!mark) return null;
  return <span className="badge">On your list · {statusLabel(category, mark.status)}</span>;
}
