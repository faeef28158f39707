import { isApiError, type ListEntry, type ListEntryPatch, type ListStats, type ListStatus } from '@mt/api-client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'wouter';
import type { CursorPage } from '../../api/catalog-calls';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { eachLimited, fetchListPage, restorable, type ListSort } from '../../api/list-calls';
import { ScreenTitle } from '../../app/screen-title';
import { useApi, useServices } from '../../app/services';
import { useCategory } from '../../categories/categories';
import { CategoryNav } from '../../categories/category-nav';
import { categoryWords, STATUSES, statusLabel } from '../../categories/labels';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { LoadError } from '../../ui/field';
import { Pager } from '../../ui/pager';
import { showUndoable } from '../../ui/notices';
import { EmptyState, Loading } from '../../ui/status';
import { Tabs } from '../../ui/tabs';
import { NotFoundScreen } from '../not-found-screen';
import { plusOne } from '../plays/play-actions';
import { BulkBar } from './bulk-bar';
import { GridCard, ListRow } from './list-row';

export const LIST_PAGE_SIZE = 50;

export const SORTS = [
  { value: 'updated_at:desc', label: 'Recently updated' },
  { value: 'created_at:desc', label: 'Recently added' },
  { value: 'title:asc', label: 'Title (A–Z)' },
  { value: 'title:desc', label: 'Title (Z–A)' },
  { value: 'score:desc', label: 'Highest score' },
  { value: 'score:asc', label: 'Lowest score' },
] as const;
type SortValue = (typeof SORTS)[number]['value'];
type Tab = 'all' | ListStatus;

const parseSort = (value: string | null): SortValue => (SORTS.some((s) => s.value === value) ? (value as SortValue) : 'updated_at:desc');
const parseTab = (value: string | null): Tab => ((STATUSES as readonly string[]).includes(value ?? '') ? (value as ListStatus) : 'all');
const parsePage = (value: string | null) => (value && /^\d{1,6}$/.test(value) && Number(value) >= 1 ? Number(value) : 1);

type Loaded = { state: 'loading'; page?: CursorPage<ListEntry> } | { state: 'done'; page: CursorPage<ListEntry> } | { state: 'error'; error: DescribedError; page?: CursorPage<ListEntry> };

export function ListScreen() {
  const { category: categoryId } = useParams<{ category: string }>();
  const category = useCategory(categoryId);
  const api = useApi();
  const { notices } = useServices();
  const [params, setParams] = useSearchParams();
  const tab = parseTab(params.get('status'));
  const sort = parseSort(params.get('sort'));
  const pageNumber = parsePage(params.get('page'));
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [reloads, setReloads] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [bulk, setBulk] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [counts, setCounts] = useState<ListStats | undefined>();
  const view = params.get('view') === 'grid' ? 'grid' : 'list';
  const selectAllRef = useRef<HTMLInputElement>(null);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  const categoryKnown = Boolean(category);

  const setQuery = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) next.delete(key);
      else next.set(key, value);
    }
    setParams(next);
  };

  useEffect(() => {
    if (!categoryKnown) return;
    const controller = new AbortController();
    const [key, order] = sort.split(':') as [ListSort, 'asc' | 'desc'];
    setLoaded((l) => ({ state: 'loading', page: l.page }));
    fetchListPage(api, categoryId, { status: tab === 'all' ? undefined : tab, sort: key, order, page: pageNumber, limit: LIST_PAGE_SIZE }, controller.signal).then(
      (page) => {
        if (!controller.signal.aborted) setLoaded({ state: 'done', page });
      },
      (error: unknown) => {
        if (!isAbort(error) && !controller.signal.aborted) setLoaded((l) => ({ state: 'error', error: describeError(error), page: l.page }));
      },
    );
    return () => controller.abort();
  }, [api, categoryId, categoryKnown, tab, sort, pageNumber, reloads]);

  // The tabs' counts: exact when read (GET …/list/stats), read again with the list after every change.
  useEffect(() => {
    if (!categoryKnown) return;
    let current = true;
    api.listStats(categoryId).then(
      (stats) => current && setCounts(stats),
      () => current && setCounts(undefined),
    );
    return () => {
      current = false;
    };
  }, [api, categoryId, categoryKnown, reloads, loaded.page]);

  // A selection belongs to what is on screen: another tab, sort or page starts afresh.
  useEffect(() => setSelected(new Set()), [categoryId, tab, sort, pageNumber]);

  const rows = loaded.page?.data ?? [];
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.item_id));
  const someSelected = rows.some((r) => selected.has(r.item_id));
  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = someSelected && !allSelected;
  }, [someSelected, allSelected]);

  const replaceRow = (entry: ListEntry) =>
    setLoaded((l) => (l.page ? { ...l, page: { ...l.page, data: l.page.data.map((r) => (r.item_id === entry.item_id ? entry : r)) } } : l));

  if (!category) return <NotFoundScreen what="category" loadingCategories />;
  const label = (status: ListStatus) => statusLabel(category, status);

  const patchRow = async (entry: ListEntry, patch: ListEntryPatch) => {
    const updated = await api.updateListEntry(category.id, entry.item_id, patch);
    replaceRow(updated);
    if (patch.status && patch.status !== entry.status) {
      const previous = entry.status;
      showUndoable(
        notices,
        `“${entry.item.title}” moved to ${label(patch.status)}.`,
        async () => replaceRow(await api.updateListEntry(category.id, entry.item_id, { status: previous })),
        (error) => describeError(error).message,
      );
    }
  };

  const stepRow = async (entry: ListEntry) => {
    const done = await plusOne(api, category, entry);
    replaceRow(done.entry);
    showUndoable(notices, done.said, async () => replaceRow(await done.undo()), (error) => describeError(error).message);
  };

  const selectedRows = () => rows.filter((r) => selected.has(r.item_id));

  const bulkStatus = async (status: ListStatus) => {
    const chosen = selectedRows();
    if (!chosen.length) return;
    setBulk({ busy: true });
    try {
      const result = await api.bulkUpdateStatus(category.id, chosen.map((r) => r.item_id), status);
      setBulk({ busy: false });
      setSelected(new Set());
      reload();
      // Undo puts each entry back in the status it had (dates the move filled in stay: docs/api.md "Your list in a category").
      const byPrevious = new Map<ListStatus, string[]>();
      for (const row of chosen) if (row.status !== status) byPrevious.set(row.status, [...(byPrevious.get(row.status) ?? []), row.item_id]);
      notices.show({
        text: `${result.updated === 1 ? '1 entry' : `${result.updated} entries`} set to ${label(status)}.`,
        tone: 'info',
        action: byPrevious.size
          ? {
              label: 'Undo',
              run: async () => {
                try {
                  for (const [previous, ids] of byPrevious) await api.bulkUpdateStatus(category.id, ids, previous);
                  notices.show({ text: 'Statuses restored.', tone: 'info' });
                } catch (error) {
                  notices.show({ text: `Could not undo: ${describeError(error).message}`, tone: 'error' });
                }
                reload();
              },
            }
          : undefined,
      });
    } catch (error) {
      setBulk({ busy: false, error: describeError(error).message });
    }
  };

  const bulkDelete = async () => {
    const chosen = selectedRows();
    setBulk({ busy: true });
    try {
      const result = await api.bulkRemoveListEntries(category.id, chosen.map((r) => r.item_id));
      setBulk({ busy: false });
      setConfirmDelete(false);
      setSelected(new Set());
      reload();
      notices.show({
        text: `${result.deleted === 1 ? '1 entry' : `${result.deleted} entries`} deleted from your list.`,
        tone: 'info',
        action: {
          label: 'Undo',
          // The API has no undelete: the entries are added again with everything the person had set.
          run: async () => {
            let failed = 0;
            await eachLimited(chosen, 4, async (row) => {
              try {
                await api.addListEntry(category.id, restorable(row));
              } catch (error) {
                if (!isApiError(error, 'conflict')) failed += 1;
              }
            });
            notices.show({ text: failed ? `${failed} could not be restored.` : 'Entries restored.', tone: failed ? 'error' : 'info' });
            reload();
          },
        },
      });
    } catch (error) {
      setBulk({ busy: false, error: describeError(error).message });
      setConfirmDelete(false);
    }
  };

  const page = loaded.page;
  const busy = loaded.state === 'loading';
  const counted = (text: string, count: number | undefined) => (count === undefined ? text : `${text} (${count})`);
  const tabs: Array<{ value: Tab; label: string }> = [
    { value: 'all', label: counted('All', counts?.total) },
    ...STATUSES.map((s) => ({ value: s as Tab, label: counted(label(s), counts?.by_status[s]) })),
  ];

  return (
    <section className="list-screen">
      <ScreenTitle title={`My ${categoryWords(category)}`}>My {categoryWords(category)}</ScreenTitle>
      <CategoryNav category={category} />
      <Tabs label="Status" tabs={tabs} value={tab} onChange={(value) => setQuery({ status: value === 'all' ? undefined : value, page: undefined })} panelId="list-panel" idPrefix="tab" />
      <div id="list-panel" role="tabpanel" aria-labelledby={`tab-${tab}`} className="list-panel" aria-busy={busy}>
        <div className="list-tools">
{view === 'list' ? (
          <label className="select-all">
            <input ref={selectAllRef} type="checkbox" checked={allSelected} disabled={rows.length === 0} onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((r) => r.item_id)) : new Set())} />
            Select all on this page
          </label>
          ) : (
            <span />
          )}
          <div className="view-switch" role="group" aria-label="View">
            <button type="button" className="button button--small" aria-pressed={view === 'list'} onClick={() => setQuery({ view: undefined })}>
              List
            </button>
            <button type="button" className="button button--small" aria-pressed={view === 'grid'} onClick={() => setQuery({ view: 'grid' })}>
              Grid
            </button>
          </div>
          <label className="sort">
            Sort by{' '}
            <select value={sort} onChange={(e) => setQuery({ sort: e.target.value, page: undefined })}>
              {SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        {loaded.state === 'error' && (
          <LoadError error={loaded.error} onRetry={reload} />
        )}
        {!page && busy && <Loading label="Loading your list…" rows={6} />}
        {page && page.total === 0 && (
          <EmptyState title={tab === 'all' ? `Your ${categoryWords(category)} list is empty.` : `Nothing is ${label(tab as ListStatus).toLowerCase()}.`}>
            <Link href={`/${category.id}`} className="button button--primary">
              Find {categoryWords(category)} to add
            </Link>
          </EmptyState>
        )}
        {page && page.total > 0 && (
          <>
            {view === 'grid' && (
              <ul className={`cards cards--posters${busy ? ' list--stale' : ''}`} aria-label={`My ${categoryWords(category)}`}>
                {page.data.map((entry) => (
                  <GridCard key={entry.item_id} category={category} entry={entry} />
                ))}
              </ul>
            )}
            {view === 'list' && (
            <ul className={`list${busy ? ' list--stale' : ''}`} aria-label={`My ${categoryWords(category)}`}>
              {page.data.map((entry) => (
                <ListRow
                  key={entry.item_id}
                  category={category}
                  entry={entry}
                  selected={selected.has(entry.item_id)}
                  onSelect={(on) =>
                    setSelected((s) => {
                      const next = new Set(s);
                      if (on) next.add(entry.item_id);
                      else next.delete(entry.item_id);
                      return next;
                    })
                  }
                  onPatch={(patch) => patchRow(entry, patch)}
                  onPlusOne={() => stepRow(entry)}
                />
              ))}
            </ul>
            )}
            <Pager
              label="List pages"
              summary={`Page ${page.page} of ${Math.max(page.total_pages, 1)} · ${page.total} ${page.total === 1 ? 'entry' : 'entries'}`}
              hasPrevious={pageNumber > 1}
              hasNext={page.page < page.total_pages}
              onPrevious={() => setQuery({ page: pageNumber > 2 ? String(pageNumber - 1) : undefined })}
              onNext={() => setQuery({ page: String(pageNumber + 1) })}
            />
          </>
        )}
      </div>
      {selected.size > 0 && (
        <BulkBar category={category} count={selected.size} busy={bulk.busy} error={bulk.error} onStatus={(s) => void bulkStatus(s)} onDelete={() => setConfirmDelete(true)} onClear={() => setSelected(new Set())} />
      )}
      <ConfirmDialog
        open={confirmDelete}
        title={selected.size === 1 ? 'Delete 1 entry?' : `Delete ${selected.size} entries?`}
        confirmLabel="Delete"
        danger
        busy={bulk.busy}
        onConfirm={() => void bulkDelete()}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>
          {selected.size === 1 ? 'It is removed from your list, with its score, progress and notes.' : 'They are removed from your list, with their scores, progress and notes.'} You can undo this right after.
        </p>
      </ConfirmDialog>
    </section>
  );
}
