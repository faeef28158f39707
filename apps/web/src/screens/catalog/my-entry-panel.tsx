import type { Category, ListEntry, ListEntryPatch, ListStatus } from '@mt/api-client';
import { useState } from 'react';
import { Link } from 'wouter';
import { describeError } from '../../api/describe-error';
import { useSubmit } from '../../api/use-submit';
import { useApi, useServices } from '../../app/services';
import { categoryWords, progressLabel, progressText, statusLabel } from '../../categories/labels';
import { Field, FormError } from '../../ui/field';
import { showUndoable } from '../../ui/notices';
import { plusOne, tracksEpisodes } from '../plays/play-actions';
import { draftOf, EntryDetailFields, patchFrom, ScoreOptions, StatusOptions, type Draft } from '../list/row-editor';

/** The fields a quick change touches, as they were: what Undo sends back. */
const previousOf = (entry: ListEntry, patch: ListEntryPatch): ListEntryPatch =>
  Object.fromEntries(Object.keys(patch).map((key) => [key, entry[key as keyof ListEntry]])) as ListEntryPatch;

const QUICK_FIELDS = ['status', 'score', 'progress'] as const;
const DETAIL_FIELDS = ['progress', 'started_at', 'finished_at', 'notes'] as const;

/**
 * The person's entry, acted on where they are: status, score and progress (+1) change at once with Undo,
 * like the list; dates and notes are saved together. Errors stand next to the field that caused them.
 */
export function MyEntryPanel(props: { category: Category; entry: ListEntry; progressTotal?: number | null; onChange: (entry: ListEntry) => void }) {
  const { category, entry, onChange } = props;
  const api = useApi();
  const { notices } = useServices();

  const quick = useSubmit(
    async (patch: ListEntryPatch, what: string) => {
      const before = previousOf(entry, patch);
      const updated = await api.updateListEntry(category.id, entry.item_id, patch);
      onChange(updated);
      showUndoable(notices, what, async () => onChange(await api.updateListEntry(category.id, entry.item_id, before)), (error) => describeError(error).message);
    },
    { fields: QUICK_FIELDS },
  );

  // +1 plays a show's next episode (its progress follows the plays), or counts one more minute or page.
  const step = useSubmit(
    async () => {
      const done = await plusOne(api, category, entry);
      onChange(done.entry);
      showUndoable(notices, done.said, async () => onChange(await done.undo()), (error) => describeError(error).message);
    },
    { fields: ['progress'] },
  );
  const progressError = quick.fields['progress'] ?? step.fields['progress'];
  const episodic = tracksEpisodes(category);

  const progress = entry.progress ?? 0;
  const title = entry.item.title;
  return (
    <div className="my-entry">
      <div className="my-entry__quick">
        <Field label="Status" name="status" error={quick.fields['status']}>
          {(control) => (
            <select
              {...control}
              value={entry.status}
              disabled={quick.pending}
              onChange={(event) => {
                const status = event.target.value as ListStatus;
                void quick.submit({ status }, `“${title}” moved to ${statusLabel(category, status)}.`);
              }}
            >
              <StatusOptions category={category} />
            </select>
          )}
        </Field>
        <Field label="Score" name="score" error={quick.fields['score']}>
          {(control) => (
            <select
              {...control}
              value={entry.score === null ? '' : String(entry.score)}
              disabled={quick.pending}
              onChange={(event) => {
                const score = event.target.value === '' ? null : Number(event.target.value);
                void quick.submit({ score }, score === null ? `Score of “${title}” removed.` : `“${title}” scored ${score}.`);
              }}
            >
              <ScoreOptions />
            </select>
          )}
        </Field>
        <div className={`field${progressError ? ' field--invalid' : ''}`}>
          <span className="field__label" id="progress-label">
            {progressLabel(category)}
          </span>
          <div className="stepper" role="group" aria-labelledby="progress-label">
            <output className="stepper__value" aria-live="polite">
              {progressText(category, entry.progress, props.progressTotal) ?? 'None yet'}
            </output>
            <button
              type="button"
              className="button button--small"
              disabled={quick.pending || progress === 0}
              hidden={episodic}

              onClick={() => void quick.submit({ progress: progress - 1 }, `Progress of “${title}”: ${progress - 1}.`)}
            >
              −1<span className="visually-hidden"> ({progressLabel(category)})</span>
            </button>
            <button type="button" className="button button--small button--primary" disabled={quick.pending || step.pending} onClick={() => void step.submit()}>
              +1<span className="visually-hidden"> ({progressLabel(category)})</span>
            </button>
          </div>
          {progressError && <p className="field__error">{progressError}</p>}
        </div>
      </div>
      <FormError error={quick.error?.message} requestId={quick.error?.requestId} />
      <FormError error={step.error?.message} requestId={step.error?.requestId} />
      <DetailsForm {...props} />
      <p>
        <Link href={`/${category.id}/list`}>All my {categoryWords(category)}</Link>
      </p>
    </div>
  );
}

/** Exact progress, dates and notes: typed, then saved together (only what changed; emptied fields become null). */
function DetailsForm({ category, entry, onChange }: { category: Category; entry: ListEntry; onChange: (entry: ListEntry) => void }) {
  const api = useApi();
  const [draft, setDraft] = useState<Draft>(() => draftOf(entry));
  const [savedFor, setSavedFor] = useState(entry.updated_at);
  // The entry changed elsewhere (a quick change, Undo): show its values.
  if (savedFor !== entry.updated_at) {
    setSavedFor(entry.updated_at);
    setDraft(draftOf(entry));
  }
  const set = (field: keyof Draft) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: event.target.value }));
  const save = useSubmit(
    async () => {
      const patch = patchFrom(entry, draft);
      if (Object.keys(patch).length > 0) onChange(await api.updateListEntry(category.id, entry.item_id, patch));
    },
    { fields: DETAIL_FIELDS },
  );

  return (
    <form
      className="my-entry__details"
      aria-label="Progress, dates and notes"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save.submit();
      }}
    >
      <div className="row-editor__grid">
        <EntryDetailFields category={category} draft={draft} set={set} errors={save.fields} />
      </div>
      <FormError error={save.error?.message} requestId={save.error?.requestId} />
      <button type="submit" className="button" disabled={save.pending}>
        {save.pending ? 'Saving…' : 'Save'}
      </button>
    </form>
  );
}
