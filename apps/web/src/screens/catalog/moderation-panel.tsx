import type { CatalogEntry, Category } from '@mt/api-client';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { searchCatalog } from '../../api/catalog-calls';
import { describeError, isAbort } from '../../api/describe-error';
import { deleteCatalogEntry, mergeCatalogEntry } from '../../api/list-io-calls';
import { useSubmit } from '../../api/use-submit';
import { useApi, useServices } from '../../app/services';
import { entryNoun } from '../../categories/labels';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Field, FormError } from '../../ui/field';
import { useDebounced } from '../../ui/use-debounced';

const OBJECT_ID = /^[0-9a-f]{24}$/i;
const SEARCH_LIMIT = 8;

/** A merge refused in words: what a 409 (external ids that disagree) or a 404 means here. */
export function mergeErrorMessage(error: ReturnType<typeof describeError>): string {
  if (error.status === 409) return `These entries cannot be merged: ${error.message} Correct the external ids of one of them first; nothing was changed.`;
  if (error.status === 404) return 'The entry to merge into does not exist (or was merged or deleted meanwhile).';
  return error.message;
}

/**
 * Moderator tools on a catalog entry (docs/api.md "The catalog of a category"): delete it with every list entry pointing at it, or fold
 * it into another entry (picked by id or by searching). The server decides (403 for anyone else).
 */
export function ModerationPanel({ category, entry }: { category: Category; entry: CatalogEntry }) {
  const api = useApi();
  const { notices } = useServices();
  const [, navigate] = useLocation();
  const noun = entryNoun(category);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<CatalogEntry[] | undefined>();
  const [searchError, setSearchError] = useState<string | undefined>();
  const [target, setTarget] = useState<{ id: string; title?: string } | undefined>();
  const [targetError, setTargetError] = useState<string | undefined>();
  const settled = useDebounced(query.trim(), 300);

  useEffect(() => {
    setResults(undefined);
    setSearchError(undefined);
    if (!settled || OBJECT_ID.test(settled)) return;
    const controller = new AbortController();
    searchCatalog(api, category.id, { q: settled, limit: SEARCH_LIMIT }, controller.signal).then(
      (page) => !controller.signal.aborted && setResults(page.data.filter((e) => e.id !== entry.id)),
      (error: unknown) => !isAbort(error) && !controller.signal.aborted && setSearchError(describeError(error).message),
    );
    return () => controller.abort();
  }, [api, category.id, entry.id, settled]);

  const remove = useSubmit(async () => {
    const result = await deleteCatalogEntry(api, category.id, entry.id);
    setConfirmDelete(false);
    const removed = result.list_entries_removed;
    notices.show({ text: `“${entry.title}” deleted from the catalog, with ${removed === 1 ? '1 list entry' : `${removed} list entries`}.`, tone: 'info' });
    navigate(`/${category.id}`);
  });

  const merge = useSubmit(async (into: string) => {
    try {
      const survivor = await mergeCatalogEntry(api, category.id, entry.id, into);
      notices.show({ text: `“${entry.title}” merged into “${survivor.title}”.`, tone: 'info' });
      navigate(`/${category.id}/${survivor.id}`, { replace: true });
    } catch (error) {
      setTarget(undefined);
      throw error;
    }
  }, { fields: ['into'] });

  const pickById = (event: FormEvent) => {
    event.preventDefault();
    setTargetError(undefined);
    const id = query.trim();
    if (!OBJECT_ID.test(id)) return setTargetError(`Type the 24-character id of the ${noun} to keep, or search and pick it below.`);
    if (id.toLowerCase() === entry.id.toLowerCase()) return setTargetError('An entry cannot be merged into itself.');
    setTarget({ id: id.toLowerCase() });
  };

  return (
    <section className="moderation" aria-labelledby="moderation-title">
      <h2 id="moderation-title">Moderation</h2>
      <div className="stack">
        <div>
          <button type="button" className="button button--danger" onClick={() => setConfirmDelete(true)}>
            Delete this {noun}
          </button>
          <FormError error={remove.error && !confirmDelete ? remove.error.message : undefined} requestId={remove.error?.requestId} />
        </div>
        <form className="form merge-form" onSubmit={pickById} noValidate aria-labelledby="merge-title">
          <h3 id="merge-title">Merge into another {noun}</h3>
          <p className="note">
            For a duplicate: its list entries move to the {noun} you pick, external ids are combined, and its address leads there from then on.
          </p>
          <Field label={`The ${noun} to keep: its id, or words of its title`} name="into" error={targetError ?? merge.fields['into']}>
            {(control) => <input {...control} type="search" autoComplete="off" value={query} onChange={(e) => setQuery(e.target.value)} />}
          </Field>
          {OBJECT_ID.test(query.trim()) && (
            <button type="submit" className="button">
              Merge into this id
            </button>
          )}
          {searchError && <FormError error={searchError} />}
          {results && results.length === 0 && <p className="note">No other {noun} matches.</p>}
          {results && results.length > 0 && (
            <ul className="merge-results" aria-label="Matching entries">
              {results.map((candidate) => (
                <li key={candidate.id}>
                  <button type="button" className="button button--small" onClick={() => setTarget({ id: candidate.id, title: candidate.title })}>
                    Merge into “{candidate.title}”{candidate.year !== null ? ` (${candidate.year})` : ''}
                  </button>{' '}
                  <code>{candidate.id}</code>
                </li>
              ))}
            </ul>
          )}
          <FormError error={merge.error && !merge.error.fields['into'] ? mergeErrorMessage(merge.error) : undefined} requestId={merge.error?.requestId} />
        </form>
      </div>
      <ConfirmDialog
        open={confirmDelete}
        title={`Delete “${entry.title}”?`}
        confirmLabel="Delete for everyone"
        danger
        busy={remove.pending}
        onConfirm={() => void remove.submit()}
        onCancel={() => {
          setConfirmDelete(false);
          remove.setError(undefined);
        }}
      >
        <p>It is removed from the catalog and from every list that has it. This cannot be undone.</p>
        <FormError error={remove.error?.message} requestId={remove.error?.requestId} />
      </ConfirmDialog>
      <ConfirmDialog
        open={Boolean(target)}
        title={`Merge “${entry.title}” into ${target?.title ? `“${target.title}”` : target?.id ?? ''}?`}
        confirmLabel="Merge"
        danger
        busy={merge.pending}
        onConfirm={() => target && void merge.submit(target.id)}
        onCancel={() => setTarget(undefined)}
      >
        <p>Every list entry of “{entry.title}” moves to the other {noun}; this one disappears from the catalog.</p>
      </ConfirmDialog>
    </section>
  );
}
