import { isApiError, type CatalogEntry, type ListEntry, type ListStatus } from '@mt/api-client';
import { DEFAULT_LIST_STATUS } from '@mt/domain';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { describeError, type DescribedError } from '../../api/describe-error';
import { fetchEntryPage } from '../../api/home-calls';
import { useSubmit } from '../../api/use-submit';
import { loginPath } from '../../app/navigation';
import { ScreenTitle } from '../../app/screen-title';
import { useApi, useSession } from '../../app/services';
import { useCategory } from '../../categories/categories';
import { CategoryNav } from '../../categories/category-nav';
import { entryNoun, pictureNoun, progressTotalOf, STATUSES, statusLabel } from '../../categories/labels';
import { FormError } from '../../ui/field';
import { Loading } from '../../ui/status';
import { NotFoundScreen } from '../not-found-screen';
import { Poster, type Pictured } from '../../ui/poster';
import { tracksEpisodes } from '../plays/play-actions';
import { externalIds, ownFields } from './entry-fields';

// Loaded when shown (signed in, on the list / a moderator): the public entry page stays in the small first load.
const EntryHistory = lazy(() => import('./entry-history').then((m) => ({ default: m.EntryHistory })));
const MyEntryPanel = lazy(() => import('./my-entry-panel').then((m) => ({ default: m.MyEntryPanel })));
const ShowEpisodes = lazy(() => import('../plays/show-episodes').then((m) => ({ default: m.ShowEpisodes })));
const PlaysPanel = lazy(() => import('../plays/plays-panel').then((m) => ({ default: m.PlaysPanel })));
const ModerationPanel = lazy(() => import('./moderation-panel').then((m) => ({ default: m.ModerationPanel })));

const MODERATING_ROLES = new Set(['moderator', 'admin']);

type Loaded<T> = { state: 'loading' } | { state: 'done'; value: T } | { state: 'error'; error: DescribedError };

export function EntryScreen() {
  const { category: categoryId, id } = useParams<{ category: string; id: string }>();
  const category = useCategory(categoryId);
  const api = useApi();
  const session = useSession();
  const [entry, setEntry] = useState<Loaded<CatalogEntry>>({ state: 'loading' });
  /** The id the shown entry was asked for: after a navigation the previous entry is still there for a moment. */
  const [askedFor, setAskedFor] = useState(id);
  /** The person's list entry for it: null when it is not on their list. */
  const [listEntry, setListEntry] = useState<Loaded<ListEntry | null>>({ state: 'loading' });
  const [status, setStatus] = useState<ListStatus>(DEFAULT_LIST_STATUS);
  const signedIn = Boolean(session);
  const moderator = MODERATING_ROLES.has(session?.user.role ?? '');
  const [, navigate] = useLocation();
  const categoryKnown = Boolean(category);

  // One request for the entry and the person's list entry for it (GET /api/v1/entries/…): an entry not on
  // the list is a null there, not a 404 the browser would log.
  useEffect(() => {
    if (!categoryKnown) return;
    let current = true;
    setEntry({ state: 'loading' });
    if (signedIn) setListEntry({ state: 'loading' });
    fetchEntryPage(api, categoryId, id).then(
      ({ item, listEntry: mine }) => {
        if (!current) return;
        setAskedFor(id);
        setEntry({ state: 'done', value: item });
        if (signedIn) setListEntry({ state: 'done', value: mine });
      },
      (error: unknown) => current && setEntry({ state: 'error', error: describeError(error) }),
    );
    return () => {
      current = false;
    };
  }, [api, categoryId, id, categoryKnown, signedIn]);

  const add = useSubmit(async () => {
    try {
      setListEntry({ state: 'done', value: await api.addListEntry(categoryId, { item_id: id, status }) });
    } catch (error) {
      // Added meanwhile (another tab): show what is there rather than an error.
      if (isApiError(error, 'conflict')) setListEntry({ state: 'done', value: await api.getListEntry(categoryId, id) });
      else throw error;
    }
  });

  // A merged id answers 301 to the survivor, which fetch follows: show the survivor's own address.
  const survivorId = entry.state === 'done' && askedFor === id && entry.value.id !== id ? entry.value.id : undefined;
  useEffect(() => {
    if (survivorId) navigate(`/${categoryId}/${survivorId}`, { replace: true });
  }, [survivorId, categoryId, navigate]);

  if (!category) return <NotFoundScreen what="category" loadingCategories />;
  if (entry.state === 'loading') return <Loading label="Loading the entry…" rows={4} />;
  if (entry.state === 'error') {
    if (entry.error.status === 404 || entry.error.status === 400) return <NotFoundScreen what={entryNoun(category)} />;
    return (
      <section>
        <ScreenTitle title="Could not load">Could not load this entry</ScreenTitle>
        <FormError error={entry.error.message} requestId={entry.error.requestId} />
      </section>
    );
  }
  const item = entry.value;
  const fields = ownFields(item);
  const ids = externalIds(item);

  return (
    <article className="entry">
      <div className="entry__head">
        <Poster work={item as Pictured} size="large" noun={pictureNoun(category)} />
        <div>
          <ScreenTitle title={item.title}>
            {item.title}
            {item.year !== null && <span className="entry__year"> ({item.year})</span>}
          </ScreenTitle>
          <CategoryNav category={category} />
        </div>
      </div>
      <section className="entry__mine" aria-labelledby="mine-title">
        <h2 id="mine-title" className="visually-hidden">
          My list
        </h2>
        {!signedIn && (
          <p>
            <Link href={loginPath(`/${category.id}/${item.id}`)}>Log in</Link> to add it to your list.
          </p>
        )}
        {signedIn && listEntry.state === 'loading' && <Loading rows={1} label="Checking your list…" />}
        {signedIn && listEntry.state === 'error' && <FormError error={listEntry.error.message} requestId={listEntry.error.requestId} />}
        {signedIn && listEntry.state === 'done' && listEntry.value && (
          <Suspense fallback={<Loading rows={2} />}>
            <MyEntryPanel
              category={category}
              entry={listEntry.value}
              progressTotal={progressTotalOf(category, item)}
              onChange={(value) => setListEntry({ state: 'done', value })}
            />
          </Suspense>
        )}
        {signedIn && listEntry.state === 'done' && listEntry.value === null && (
          <form
            className="add-to-list"
            onSubmit={(event) => {
              event.preventDefault();
              void add.submit();
            }}
          >
            <label htmlFor="add-status">Status</label>
            <select id="add-status" value={status} onChange={(e) => setStatus(e.target.value as ListStatus)}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusLabel(category, s)}
                </option>
              ))}
            </select>
            <button type="submit" className="button button--primary" disabled={add.pending}>
              {add.pending ? 'Adding…' : 'Add to my list'}
            </button>
            <FormError error={add.error?.message} requestId={add.error?.requestId} />
          </form>
        )}
      </section>
      <dl className="facts">
        {item.genres.length > 0 && (
          <div className="facts__row">
            <dt>Genres</dt>
            <dd>{item.genres.join(', ')}</dd>
          </div>
        )}
        {fields.map((f) => (
          <div key={f.field} className="facts__row">
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
        {ids.map(([label, value]) => (
          <div key={label} className="facts__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {item.description && <p className="entry__description">{item.description}</p>}
      <Suspense fallback={<Loading rows={2} />}>
        {signedIn && listEntry.state === 'done' && listEntry.value && (
          <>
            {tracksEpisodes(category) && (
              <ShowEpisodes category={category} itemId={item.id} entry={listEntry.value} onEntryChange={(value) => setListEntry({ state: 'done', value })} />
            )}
            <PlaysPanel category={category} entry={listEntry.value} onEntryChange={(value) => setListEntry({ state: 'done', value })} />
          </>
        )}
        {signedIn && listEntry.state === 'done' && listEntry.value && (
          <EntryHistory category={category} itemId={item.id} version={listEntry.value.updated_at} />
        )}
        {moderator && <ModerationPanel category={category} entry={item} />}
      </Suspense>
    </article>
  );
}
