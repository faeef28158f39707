import type { Category, ListEntry, ListEntryPatch, ListStatus } from '@mt/api-client';
import { useState } from 'react';
import { Link } from 'wouter';
import { describeError } from '../../api/describe-error';
import { progressUnit, STATUSES, statusLabel } from '../../categories/labels';
import { EntryHistory } from '../catalog/entry-history';
import { RowEditor } from './row-editor';

/** One entry of the list: select it, change its status right there, or open every field under it. */
export function ListRow(props: {
  category: Category;
  entry: ListEntry;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  /** Saves the patch; rejects with the API's error (shown where the change was made). */
  onPatch: (patch: ListEntryPatch) => Promise<void>;
}) {
  const { category, entry } = props;
  const [editing, setEditing] = useState(false);
  const [statusError, setStatusError] = useState<string | undefined>();
  const [savingStatus, setSavingStatus] = useState(false);
  const unit = progressUnit(category);
  const titleId = `title-${entry.item_id}`;

  const changeStatus = async (status: ListStatus) => {
    setStatusError(undefined);
    setSavingStatus(true);
    try {
      await props.onPatch({ status });
    } catch (error) {
      setStatusError(describeError(error).message);
    } finally {
      setSavingStatus(false);
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
        <div className="list-row__title">
          <Link href={`/${category.id}/${entry.item_id}`} id={titleId}>
            {entry.item.title}
          </Link>
          <span className="list-row__meta">
            {entry.item.year ?? ''}
            {entry.score !== null && <span> · Score {entry.score}</span>}
            {entry.progress !== null && (
              <span>
                {' '}
                · {entry.progress}
                {unit ? ` ${unit}` : ''}
              </span>
            )}
          </span>
          {entry.notes && <p className="list-row__notes">{entry.notes}</p>}
        </div>
        <div className="list-row__status">
          <label className="visually-hidden" htmlFor={`status-${entry.item_id}`}>
            Status of {entry.item.title}
          </label>
          <select
            id={`status-${entry.item_id}`}
            value={entry.status}
            disabled={savingStatus}
            aria-invalid={statusError ? true : undefined}
            aria-describedby={statusError ? `status-error-${entry.item_id}` : undefined}
            onChange={(event) => void changeStatus(event.target.value as ListStatus)}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(category, s)}
              </option>
            ))}
          </select>
          <button
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
      {statusError && (
        <p className="field__error" id={`status-error-${entry.item_id}`} role="alert">
          {statusError}
        </p>
      )}
      {editing && (
        <div id={`editor-${entry.item_id}`}>
          <RowEditor category={category} entry={entry} onSave={props.onPatch} onClose={() => setEditing(false)} />
          <EntryHistory category={category} itemId={entry.item_id} version={entry.updated_at} level={3} />
        </div>
      )}
    </li>
  );
}
