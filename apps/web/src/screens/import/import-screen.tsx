import { IMPORT_FILE_KINDS } from '@mt/domain';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useParams } from 'wouter';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { exportList, isFinished, listImports, saveBlob, startImport, type ExportFormat, type ImportJob, type ImportJobPage, type ImportMode } from '../../api/list-io-calls';
import { importSourcesOf, openApiDocument } from '../../api/openapi-document';
import { useSubmit } from '../../api/use-submit';
import { ScreenTitle } from '../../app/screen-title';
import { useApi } from '../../app/services';
import { useCategory } from '../../categories/categories';
import { CategoryNav } from '../../categories/category-nav';
import { Field, FormError, LoadError } from '../../ui/field';
import { EmptyState, Loading } from '../../ui/status';
import { NotFoundScreen } from '../not-found-screen';
import { ImportReport } from './import-report';
import { categoryWords } from '../../categories/labels';
import { useImportJob } from './use-import-job';
import { formatTime } from '../../ui/format-time';

/** The documented sources in words; a source the app does not know yet is shown by its name. */
export const SOURCE_LABELS: Record<string, string> = {
  'media-tracker': 'Media Tracker export (JSON)',
  csv: 'Media Tracker export (CSV)',
  letterboxd: 'Letterboxd (CSV)',
  trakt: 'Trakt (JSON)',
  imdb: 'IMDb (CSV)',
  goodreads: 'Goodreads (CSV)',
  storygraph: 'The StoryGraph (CSV)',
};
const sourceLabel = (source: string) => SOURCE_LABELS[source] ?? source;

/** The API's limit (docs/api.md "Your list in a category"), checked here too so a person is told before a 10 MiB upload is refused. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
const PAST_JOBS = 10;

/** Errors about the file itself (unreadable, too large, wrong type) are shown next to the file field. */
const FILE_ERROR_STATUSES = new Set([400, 413, 415]);

interface ImportForm {
  source: string;
  mode: ImportMode;
  dryRunFirst: boolean;
  file?: File;
  /** Letterboxd: which of its files this is (its name otherwise tells, and people rename files). */
  fileKind?: string;
}

/** Sources that write several files with the same header: the person says which one it is (the API's `file`). */
const KIND_WORDS: Readonly<Record<string, string>> = { 'watched.csv': 'Watched films', 'watchlist.csv': 'Watchlist' };
const FILE_KINDS: Readonly<Record<string, ReadonlyArray<{ value: string; label: string }>>> = Object.fromEntries(
  Object.entries(IMPORT_FILE_KINDS).map(([source, kinds]) => [source, kinds.map((value) => ({ value, label: KIND_WORDS[value] ? `${KIND_WORDS[value]} (${value})` : value }))]),
);
const kindFromName = (source: string, name: string) => FILE_KINDS[source]?.find((kind) => name.toLowerCase().endsWith(kind.value))?.value;

export function ImportScreen() {
  const { category: categoryId } = useParams<{ category: string }>();
  const category = useCategory(categoryId);
  const api = useApi();
  const [sources, setSources] = useState<{ list: string[]; error?: string } | undefined>();
  const [form, setForm] = useState<ImportForm>({ source: '', mode: 'skip_existing', dryRunFirst: true });
  const [fileError, setFileError] = useState<string | undefined>();
  const [kindError, setKindError] = useState<string | undefined>();
  /** The job on screen: a dry run waiting for confirmation, or the import itself. */
  const [started, setStarted] = useState<ImportJob | undefined>();
  const followed = useImportJob(api, categoryId, started);
  const [pastJobs, setPastJobs] = useState<{ page?: ImportJobPage; error?: DescribedError }>({});
  const [pastReloads, setPastReloads] = useState(0);
  const categoryKnown = Boolean(category);

  useEffect(() => {
    if (!categoryKnown) return;
    let current = true;
    openApiDocument(api).then(
      (doc) => {
        if (!current) return;
        const list = importSourcesOf(doc, categoryId);
        setSources({ list, error: list.length ? undefined : 'This category has no import sources.' });
        setForm((f) => ({ ...f, source: list.includes(f.source) ? f.source : (list[0] ?? '') }));
      },
      (error: unknown) => current && setSources({ list: [], error: `The import sources could not be loaded: ${describeError(error).message}` }),
    );
    return () => {
      current = false;
    };
  }, [api, categoryId, categoryKnown]);

  useEffect(() => {
    if (!categoryKnown) return;
    const controller = new AbortController();
    listImports(api, categoryId, PAST_JOBS, controller.signal).then(
      (page) => setPastJobs({ page }),
      (error: unknown) => !isAbort(error) && !controller.signal.aborted && setPastJobs((p) => ({ page: p.page, error: describeError(error) })),
    );
    return () => controller.abort();
  }, [api, categoryId, categoryKnown, pastReloads]);

  const job = followed?.job;
  const jobFinished = job ? isFinished(job) : false;
  // A finished job belongs in the list of past imports.
  useEffect(() => {
    if (jobFinished) setPastReloads((n) => n + 1);
  }, [jobFinished, job?.id]);

  const start = useSubmit(async (dryRun: boolean) => {
    if (!form.file) return;
    try {
      const fileKind = FILE_KINDS[form.source] ? form.fileKind : undefined;
      setStarted(await startImport(api, categoryId, { source: form.source, mode: form.mode, dryRun, file: form.file, fileKind }));
    } catch (error) {
      const described = describeError(error);
      // A detail about the body or the file (whatever key the server files it under) is about the file.
      if (described.status && FILE_ERROR_STATUSES.has(described.status) && !Object.keys(described.fields).some((f) => f === 'source' || f === 'mode')) {
        setFileError(described.message);
        return;
      }
      throw error;
    }
  }, { fields: ['source', 'file', 'mode'] });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFileError(undefined);
    setKindError(undefined);
    if (!form.file) return setFileError('Choose the file to import.');
    if (form.file.size > MAX_IMPORT_BYTES) return setFileError('The file is larger than 10 MiB, the most one import takes.');
    if (FILE_KINDS[form.source] && !form.fileKind) return setKindError('Choose which of its files this is.');
    void start.submit(form.dryRunFirst);
  };

  const reset = useCallback(() => {
    setStarted(undefined);
    start.setError(undefined);
  }, [start]);

  if (!category) return <NotFoundScreen what="category" loadingCategories />;
  const name = categoryWords(category);
  // While a job is on screen the form stays as it was sent: the dry run's report is about that file.
  const busy = Boolean(job);

  return (
    <section className="import-screen">
      <ScreenTitle title={`Import and export ${name}`}>Import and export {name}</ScreenTitle>
      <CategoryNav category={category} />
      <ExportPanel categoryId={category.id} name={name} />

      <section aria-labelledby="import-title" className="stack">
        <h2 id="import-title">Import a file</h2>
        {!sources && <Loading rows={2} label="Loading the import sources…" />}
        {sources?.error && <FormError error={sources.error} />}
        {sources && sources.list.length > 0 && (
          <form className="form import-form" onSubmit={submit} noValidate aria-labelledby="import-title">
            <Field label="From" name="source" error={start.fields['source']} hint="Where the file comes from: an export of this app or of another tracker.">
              {(control) => (
                <select {...control} value={form.source} disabled={busy} onChange={(e) => setForm({ ...form, source: e.target.value })}>
                  {sources.list.map((source) => (
                    <option key={source} value={source}>
                      {sourceLabel(source)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="File" name="file" error={fileError ?? start.fields['file']} hint="CSV or JSON, up to 10 MiB.">
              {(control) => (
                <input
                  {...control}
                  type="file"
                  accept=".csv,.json,text/csv,application/json"
                  disabled={busy}
                  onChange={(e) => {
                    setFileError(undefined);
                    const file = e.target.files?.[0];
                    setForm({ ...form, file, fileKind: (file && kindFromName(form.source, file.name)) ?? form.fileKind });
                  }}
                />
              )}
            </Field>
            {FILE_KINDS[form.source] && (
              <Field label="Which file" name="file_kind" error={kindError} hint="Letterboxd's export has several files with the same columns: say which one this is.">
                {(control) => (
                  <select {...control} value={form.fileKind ?? ''} disabled={busy} onChange={(e) => {
                      setKindError(undefined);
                      setForm({ ...form, fileKind: e.target.value || undefined });
                    }}>
                    <option value="">Choose…</option>
                    {FILE_KINDS[form.source]!.map((kind) => (
                      <option key={kind.value} value={kind.value}>
                        {kind.label}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            )}
            <fieldset className="choices" disabled={busy}>
              <legend>Entries already on your list</legend>
              <label className="checkbox">
                <input type="radio" name="mode" value="skip_existing" checked={form.mode === 'skip_existing'} onChange={() => setForm({ ...form, mode: 'skip_existing' })} />
                Keep them as they are
              </label>
              <label className="checkbox">
                <input type="radio" name="mode" value="overwrite" checked={form.mode === 'overwrite'} onChange={() => setForm({ ...form, mode: 'overwrite' })} />
                Replace them with the file's
              </label>
              {start.fields['mode'] && <p className="field__error">{start.fields['mode']}</p>}
            </fieldset>
            <label className="checkbox">
              <input type="checkbox" checked={form.dryRunFirst} disabled={busy} onChange={(e) => setForm({ ...form, dryRunFirst: e.target.checked })} />
              Dry run first (see what would happen, change nothing)
            </label>
            <FormError error={start.error?.message} requestId={start.error?.requestId} />
            <button type="submit" className="button button--primary" disabled={start.pending || busy}>
              {start.pending ? 'Uploading…' : form.dryRunFirst ? 'Check the file' : 'Import'}
            </button>
          </form>
        )}
      </section>

      {job && (
        <div className="stack">
          <ImportReport job={job} headingId="report-title" />
          {followed?.error && <FormError error={`Could not read the progress: ${followed.error.message} Trying again…`} />}
          {jobFinished && job.dry_run && job.status === 'completed' && (
            <div className="report__actions">
              <button type="button" className="button button--primary" disabled={start.pending} onClick={() => void start.submit(false)}>
                {start.pending ? 'Uploading…' : 'Import it now'}
              </button>
              <button type="button" className="button" onClick={reset}>
                Cancel
              </button>
            </div>
          )}
          {jobFinished && (!job.dry_run || job.status === 'failed') && (
            <button type="button" className="button" onClick={reset}>
              Import another file
            </button>
          )}
        </div>
      )}

      <PastImports pastJobs={pastJobs} onRetry={() => setPastReloads((n) => n + 1)} />
    </section>
  );
}

function ExportPanel({ categoryId, name }: { categoryId: string; name: string }) {
  const api = useApi();
  const [saving, setSaving] = useState<ExportFormat | undefined>();
  const download = useSubmit(async (format: ExportFormat) => {
    setSaving(format);
    try {
      const { blob, fileName } = await exportList(api, categoryId, format);
      saveBlob(blob, fileName);
    } finally {
      setSaving(undefined);
    }
  });
  return (
    <section aria-labelledby="export-title" className="stack">
      <h2 id="export-title">Download your list</h2>
      <p>Every entry of your {name} list with its catalog details, to keep or to import elsewhere.</p>
      <div className="report__actions">
        <button type="button" className="button" disabled={download.pending} onClick={() => void download.submit('json')}>
          {saving === 'json' ? 'Preparing JSON…' : 'Download JSON'}
        </button>
        <button type="button" className="button" disabled={download.pending} onClick={() => void download.submit('csv')}>
          {saving === 'csv' ? 'Preparing CSV…' : 'Download CSV'}
        </button>
      </div>
      <FormError error={download.error?.message} requestId={download.error?.requestId} />
    </section>
  );
}


function PastImports({ pastJobs, onRetry }: { pastJobs: { page?: ImportJobPage; error?: DescribedError }; onRetry: () => void }) {
  const { page, error } = pastJobs;
  return (
    <section aria-labelledby="past-title" className="stack">
      <h2 id="past-title">Past imports</h2>
      {error && (
        <LoadError error={error} onRetry={onRetry} />
      )}
      {!page && !error && <Loading rows={2} label="Loading past imports…" />}
      {page && page.data.length === 0 && <EmptyState title="No imports yet." />}
      {page && page.data.length > 0 && (
        <table className="data-table">
          <caption className="visually-hidden">Your last {PAST_JOBS} imports, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">File</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {page.data.map((job) => (
              <tr key={job.id}>
                <th scope="row">{formatTime(job.created_at)}</th>
                <td>
                  {job.file_name ?? '—'} · {sourceLabel(job.source)}
                  {job.dry_run ? ' · dry run' : ''}
                </td>
                <td>
                  {job.status === 'completed'
                    ? `${job.counts.rows} rows: ${job.counts.added} added, ${job.counts.updated} updated, ${job.counts.unchanged} unchanged, ${job.counts.skipped} skipped, ${job.counts.failed} failed`
                    : job.status === 'failed'
                      ? `Stopped: ${job.failure ?? 'unknown reason'}`
                      : job.status === 'running'
                        ? 'Running…'
                        : 'Queued…'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
