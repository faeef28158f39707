import type { Category, ListEntry, ListEntryPatch, ListStatus } from '@mt/api-client';
import { useRef, useState } from 'react';
import { Link } from 'wouter';
import { describeError } from '../../api/describe-error';
import { pictureNoun, progressUnit, progressText, progressTotalOf, statusLabel } from '../../categories/labels';
import { Poster } from '../../ui/poster';
import { EntryHistory } from '../catalog/entry-history';
import { RowEditor, StatusOptions } from './row-editor';

/** What a row or a card says about an entry besides its title: year, score out of 10, progress in its unit. */
function entryFacts(category: Category, entry: ListEntry): string {
  const progress = progressText(category, entry.progress, progressTotalOf(category, entry.item));
  return [entry.item.year, entry.score !== null && `${entry.score}/10`, progress].filter(Boolean).join(' · ');
}

/** One entry as a card of the grid view: its picture, title and where it stands; the entry page acts on it. */
export function GridCard({ category, entry }: { category: Category; entry: ListEntry }) {
  return (
    <li className="card card--poster">
      <Poster work={entry.item} size="large" noun={pictureNoun(category)} />
      <Link href={`/${category.id}/${entry.item_id}`} className="card__title">
        {entry.item.title}
      </Link>
      <span className="card__meta">{statusLabel(category, entry.status)}</span>
      <span className="card__meta">{entryFacts(category, entry)}</span>
    </li>
  );
}

/** One entry of the list: select it, change its status right there, or open every field under it. */
export function ListRow(props: {
  category: Category;
  entry: ListEntry;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  /** Saves the patch; rejects with the API's error (shown where the change was made). */
  onPatch: (patch: ListEntryPatch) => Promise<void>;
  /** +1: the next episode of a show, one more unit of anything else; rejects with the API's error. */
  onPlusOne: () => Promise<void>;
}) {
  const { category, entry } = props;
  const [editing, setEditing] = useState(false);
  const [rowError, setRowError] = useState<string | undefined>();
  const [rowBusy, setRowBusy] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const closeEditor = () => {
    setEditing(false);
    // Escape, Cancel or Save closed it: focus goes back to the button that opened it, not to <body>.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const titleId = `title-${entry.item_id}`;

  const changeStatus = (status: ListStatus) => act(() => props.onPatch({ status }));
  const act = async (change: () => Promise<void>) => {
    setRowError(undefined);
    setRowBusy(true);
    try {
      await change();
    } catch (error) {
      setRowError(describeError(error).message);
    } finally {
      setRowBusy(false);
    }
  };

  return (
    <li className={`list-row${props.selected ? ' list-row--selected' : ''}`} aria-labelledby={titleId}>
      <div className="list-row__main">
        <input
          type="checkbox"
          className="list-row__check"
          checked={props.selected}
          onChange={(event) => props.onSelect(event.target.checked)}
          aria-label={`Select ${entry.item.title}`}
        />
        <Poster work={entry.item} noun={pictureNoun(category)} />
        <div className="list-row__title">
          <Link href={`/${category.id}/${entry.item_id}`} id={titleId}>
            {entry.item.title}
          </Link>
          <span className="list-row__meta">{entryFacts(category, entry)}</span>
          {entry.notes && <p className="list-row__notes">{entry.notes}</p>}
        </div>
        <div className="list-row__status">
          {/* While the editor is open it has the status: one status select at a time. */}
          {!editing && (
            <>
              <label className="visually-hidden" htmlFor={`status-${entry.item_id}`}>
                Status of {entry.item.title}
              </label>
              <button type="button" className="button button--small" disabled={rowBusy} onClick={() => void act(props.onPlusOne)} aria-label={`+1 ${progressUnit(category) ?? 'progress'}: ${entry.item.title}`}>
                +1
              </button>
              <select
                id={`status-${entry.item_id}`}
                value={entry.status}
                disabled={rowBusy}
                aria-invalid={rowError ? true : undefined}
                aria-describedby={rowError ? `status-error-${entry.item_id}` : undefined}
                onChange={(event) => void changeStatus(event.target.value as ListStatus)}
              >
                <StatusOptions category={category} />
              </select>
            </>
          )}
          <button
            ref={editButton}
            type="button"
            className="button button--small"
            aria-expanded={editing}
            aria-controls={editing ? `editor-${entry.item_id}` : undefined}
            aria-label={`${editing ? 'Close' : 'Edit'} ${entry.item.title}`}
            onClick={() => setEditing((e) => !e)}
          >
            {editing ? 'Close' : 'Edit'}
          </button>
        </div>
      </div>
      {rowError && (
        <p className="field__error" id={`status-error-${entry.item_id}`} role="alert">
          {rowError}
        </p>
      )}
      {editing && (
        <div id={`editor-${entry.item_id}`}>
          <RowEditor category={category} entry={entry} onSave={props.onPatch} onClose={closeEditor} />
          <EntryHistory category={category} itemId={entry.item_id} version={entry.updated_at} level={3} />
        </div>
      )}
    </li>
  );
}
