import type { Category, ListStatus } from '@mt/api-client';
import { useState } from 'react';
import { STATUSES, statusLabel } from '../../categories/labels';
import { FormError } from '../../ui/field';

/** What can be done to every selected entry at once. Sticks to the bottom of the screen while there is a selection. */
export function BulkBar(props: {
  category: Category;
  count: number;
  busy: boolean;
  error?: string;
  onStatus: (status: ListStatus) => void;
  onDelete: () => void;
  onClear: () => void;
}) {
  const [status, setStatus] = useState<ListStatus>('completed');
  return (
    <section className="bulk-bar" aria-label="Selected entries">
      <p className="bulk-bar__count">{props.count === 1 ? '1 selected' : `${props.count} selected`}</p>
      <form
        className="bulk-bar__form"
        onSubmit={(event) => {
          event.preventDefault();
          props.onStatus(status);
        }}
      >
        <label htmlFor="bulk-status">Set status</label>
        <select id="bulk-status" value={status} onChange={(e) => setStatus(e.target.value as ListStatus)}>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(props.category, s)}
            </option>
          ))}
        </select>
        <button type="submit" className="button button--primary" disabled={props.busy}>
          Apply
        </button>
      </form>
      <button type="button" className="button button--danger" onClick={props.onDelete} disabled={props.busy}>
        Delete…
      </button>
      <button type="button" className="button" onClick={props.onClear} disabled={props.busy}>
        Clear selection
      </button>
      <FormError error={props.error} />
    </section>
  );
}
