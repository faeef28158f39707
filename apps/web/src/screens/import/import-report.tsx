import type { ImportJob } from '../../api/list-io-calls';
import { isFinished } from '../../api/list-io-calls';

/** The counts of a job, in the words a person reads them (docs/api.md "Your list in a category"). */
export const COUNT_LABELS: Array<[keyof ImportJob['counts'], string]> = [
  ['rows', 'Rows in the file'],
  ['matched', 'Matched to the catalog'],
  ['catalog_created', 'New catalog entries'],
  ['added', 'Added to your list'],
  ['updated', 'Updated'],
  ['unchanged', 'Already the same'],
  ['skipped', 'Skipped'],
  ['failed', 'Failed'],
];

/** Rows the job has gone through so far (each row ends in exactly one of these). */
export const processedRows = (job: ImportJob) =>
  job.counts.added + job.counts.updated + job.counts.unchanged + job.counts.skipped + job.counts.failed;

export function jobHeadline(job: ImportJob): string {
  const what = job.dry_run ? 'Dry run' : 'Import';
  switch (job.status) {
    case 'queued':
      return `${what} queued…`;
    case 'running':
      return `${what} running: ${processedRows(job)} of ${job.counts.rows || '?'} rows…`;
    case 'failed':
      return `${what} stopped: ${job.failure ?? 'it could not finish'}.`;
    case 'completed':
      return job.dry_run
        ? `Dry run finished: nothing was changed. ${job.counts.failed ? `${job.counts.failed} ${job.counts.failed === 1 ? 'row' : 'rows'} would fail.` : 'Every row can be imported.'}`
        : `Import finished: ${job.counts.added} added, ${job.counts.updated} updated, ${job.counts.failed} failed.`;
  }
}

/** A job's progress, counts and failed rows (with their row numbers, as a spreadsheet numbers them). */
export function ImportReport({ job, headingId }: { job: ImportJob; headingId: string }) {
  const finished = isFinished(job);
  return (
    <section className="report" aria-labelledby={headingId}>
      <h2 id={headingId}>{job.dry_run ? 'Dry run' : 'Import'}{job.file_name ? ` of ${job.file_name}` : ''}</h2>
      <p role="status" aria-live="polite" className={job.status === 'failed' ? 'report__failed' : undefined}>
        {jobHeadline(job)}
      </p>
      {!finished && (
        <progress
          className="report__progress"
          aria-label="Rows imported"
          max={Math.max(job.counts.rows, 1)}
          value={job.counts.rows ? processedRows(job) : undefined}
        />
      )}
      <dl className="counts">
        {COUNT_LABELS.map(([key, label]) => (
          <div key={key} className="counts__item">
            <dt>{label}</dt>
            <dd>{job.counts[key]}</dd>
          </div>
        ))}
      </dl>
      <RowTable
        rows={job.errors}
        caption={job.errors.length === 1 ? 'The row that failed' : `Rows that failed (${job.errors.length}${job.counts.failed > job.errors.length ? ` of ${job.counts.failed}` : ''})`}
        column="Why"
      />
      <RowTable
        rows={job.warnings}
        caption={job.warnings.length === 1 ? 'The row imported with a remark' : `Rows imported with a remark (${job.warnings.length})`}
        column="Remark"
      />
    </section>
  );
}

/** Rows of the file with a message each (failed rows, or rows applied with a remark); nothing when there are none. */
function RowTable({ rows, caption, column }: { rows: ReadonlyArray<{ row: number; message: string }>; caption: string; column: string }) {
  if (rows.length === 0) return null;
  return (
    <table className="data-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Row</th>
          <th scope="col">{column}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((item, at) => (
          <tr key={`${item.row}-${at}`}>
            <th scope="row">{item.row}</th>
            <td>{item.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
