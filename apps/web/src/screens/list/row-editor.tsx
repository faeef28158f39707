import type { Category, ListEntry, ListEntryPatch, ListStatus } from '@mt/api-client';
import { useState } from 'react';
import { useSubmit } from '../../api/use-submit';
import { progressLabel, STATUSES, statusLabel } from '../../categories/labels';
import { Field, FormError } from '../../ui/field';

export interface Draft {
  status: ListStatus;
  score: string;
  progress: string;
  notes: string;
  started_at: string;
  finished_at: string;
}

export const draftOf = (entry: ListEntry): Draft => ({
  status: entry.status,
  score: entry.score === null ? '' : String(entry.score),
  progress: entry.progress === null ? '' : String(entry.progress),
  notes: entry.notes ?? '',
  started_at: entry.started_at ?? '',
  finished_at: entry.finished_at ?? '',
});

/** Only what changed, with an emptied field sent as null (docs/api.md "Your list in a category": score, progress, notes, dates). */
export function patchFrom(entry: ListEntry, draft: Draft): ListEntryPatch {
  const before = draftOf(entry);
  const patch: Record<string, unknown> = {};
  if (draft.status !== before.status) patch['status'] = draft.status;
  const nullable = (text: string, convert: (t: string) => unknown) => (text.trim() === '' ? null : convert(text.trim()));
  const asInteger = (t: string) => (/^\d+$/.test(t) ? Number(t) : t);
  if (draft.score !== before.score) patch['score'] = nullable(draft.score, asInteger);
  if (draft.progress.trim() !== before.progress) patch['progress'] = nullable(draft.progress, asInteger);
  if (draft.notes !== before.notes) patch['notes'] = draft.notes.trim() === '' ? null : draft.notes;
  if (draft.started_at !== before.started_at) patch['started_at'] = nullable(draft.started_at, String);
  if (draft.finished_at !== before.finished_at) patch['finished_at'] = nullable(draft.finished_at, String);
  return patch as ListEntryPatch;
}

/** Every field of one list entry, edited in place under its row; errors next to their fields. */
export function RowEditor(props: {
  category: Category;
  entry: ListEntry;
  onSave: (patch: ListEntryPatch) => Promise<void>;
  onClose: () => void;
}) {
  const { category, entry } = props;
  const [draft, setDraft] = useState<Draft>(() => draftOf(entry));
  const set = (field: keyof Draft) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: event.target.value }));
  const save = useSubmit(async () => {
    const patch = patchFrom(entry, draft);
    if (Object.keys(patch).length > 0) await props.onSave(patch);
    props.onClose();
  }, { fields: ['status', 'score', 'progress', 'started_at', 'finished_at', 'notes'] });
  const id = `edit-${entry.item_id}`;

  return (
    <form
      className="row-editor"
      aria-label={`Edit ${entry.item.title}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save.submit();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          props.onClose();
        }
      }}
    >
      <FormError error={save.error?.message} requestId={save.error?.requestId} />
      <div className="row-editor__grid">
        <Field label="Status" name="status" error={save.fields['status']}>
          {(control) => (
            <select {...control} value={draft.status} onChange={set('status')} autoFocus>
              <StatusOptions category={category} />
            </select>
          )}
        </Field>
        <Field label="Score" name="score" error={save.fields['score']}>
          {(control) => (
            <select {...control} value={draft.score} onChange={set('score')}>
              <ScoreOptions />
            </select>
          )}
        </Field>
        <EntryDetailFields category={category} draft={draft} set={set} errors={save.fields} />
      </div>
      <div className="row-editor__actions">
        <button type="button" className="button" onClick={props.onClose}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={save.pending} id={`${id}-save`}>
          {save.pending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

/** Progress, dates and notes of an entry being edited (the list's row editor, the entry page). */
export function EntryDetailFields(props: {
  category: Category;
  draft: Draft;
  set: (field: keyof Draft) => (event: { target: { value: string } }) => void;
  errors: Record<string, string>;
}) {
  const { category, draft, set, errors } = props;
  return (
    <>
        <Field label={progressLabel(category)} name="progress" error={errors['progress']}>
          {(control) => <input {...control} type="number" inputMode="numeric" min={0} step={1} value={draft.progress} onChange={set('progress')} />}
        </Field>
        <Field label="Started" name="started_at" error={errors['started_at']}>
          {(control) => <input {...control} type="date" value={draft.started_at} onChange={set('started_at')} />}
        </Field>
        <Field label="Finished" name="finished_at" error={errors['finished_at']}>
          {(control) => <input {...control} type="date" value={draft.finished_at} onChange={set('finished_at')} />}
        </Field>
        <Field label="Notes" name="notes" error={errors['notes']} className="row-editor__notes" hint={`${draft.notes.length} / 2000`}>
          {(control) => <textarea {...control} rows={3} maxLength={2000} value={draft.notes} onChange={set('notes')} />}
        </Field>
    </>
  );
}

/** The options of a status select, in the category's words. */
export function StatusOptions({ category }: { category: Category }) {
  return (
    <>
      {STATUSES.map((s) => (
        <option key={s} value={s}>
          {statusLabel(category, s)}
        </option>
      ))}
    </>
  );
}

/** The options of a score select: none, then 10 down to 1. */
export function ScoreOptions() {
  return (
    <>
      <option value="">No score</option>
      {Array.from({ length: 10 }, (_, i) => String(10 - i)).map((n) => (
        <option key={n} value={n}>
          {n}
        </option>
      ))}
    </>
  );
}
