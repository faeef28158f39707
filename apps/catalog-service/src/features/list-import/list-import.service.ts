import { isObjectIdHex } from '@mt/validation';
import { DEFAULT_LIMIT, type Page } from '@mt/contracts';
import { errors } from '@mt/errors';
import { KeyedMutex, TransactionContentionError } from '@mt/stores';
import { parseImport, type Category } from '@mt/importers';
import { nextCursor, resumeWalk, type CursorCodec } from '@mt/pagination';
import { newId, toId, type Id } from '../../domain/ids';
import type { CategoryDefinition } from '../../domain/categories';
import { pageWindow, toPage } from '../../domain/offset-page';
import type { ImportJobListQueryInput, ImportStartQuery } from './list-import.schemas';
import { UploadCopy } from './upload-copy';
import { ACTIVE_IMPORT as ACTIVE, UploadAdmission } from './upload-admission';
import { ActiveImportExistsError, type ImportJobDocument } from '../../domain/records/import-job.record';
import { zeroCounts } from '../../domain/list-import';
import type { ImportJobsStore } from '../../domain/ports/import-jobs-store.port';

/** Where jobs go to be executed (BullMQ in production); null on an instance that runs no imports. */
export interface ImportQueuePort {
  enqueue(jobId: string): Promise<void>;
}

export type ImportJobResponse = ReturnType<typeof toJobResponse>;

export function toJobResponse(category: string, job: ImportJobDocument) {
  return {
    id: job._id.toHexString(),
    category,
    source: job.source,
    mode: job.mode,
    dry_run: job.dry_run,
    file_name: job.file_name,
    status: job.status,
    counts: { ...zeroCounts(), ...job.counts },
    errors: job.errors,
    warnings: job.warnings ?? [],
    failure: job.failure,
    created_at: job.created_at.toISOString(),
    started_at: job.started_at?.toISOString() ?? null,
    finished_at: job.finished_at?.toISOString() ?? null,
  };
}

/**
 * Import requests: the upload is validated while it is stored (a refused file is a 400/413
 * before any job exists, and leaves nothing behind), then the job record is inserted — the database allows
 * one queued or running job per user — and handed to the queue.
 */
export interface ImportsServiceDeps {
  category: CategoryDefinition;
  jobs: ImportJobsStore;
  queue: ImportQueuePort | null;
  cursors: CursorCodec;
  now?: () => Date;
  /** Who may upload now (one upload per user, IMPORT_UPLOADS_AT_ONCE per instance). */
  admission?: UploadAdmission;
}

export class ImportsService {
  private readonly inserting = new KeyedMutex();
  private readonly category: CategoryDefinition;
  private readonly jobs: ImportJobsStore;
  private readonly queue: ImportQueuePort | null;
  private readonly cursors: CursorCodec;
  private readonly now: () => Date;
  private readonly admission: UploadAdmission;

  constructor({ category, jobs, queue, cursors, now = () => new Date(), admission = new UploadAdmission() }: ImportsServiceDeps) {
    this.category = category;
    this.jobs = jobs;
    this.queue = queue;
    this.cursors = cursors;
    this.now = now;
    this.admission = admission;
  }

  /** Called before the body is read: a refusal here (409, 503) costs the instance nothing of the upload. */
  async start(userId: string, canCreateEntries: boolean, query: ImportStartQuery, body: AsyncIterable<Uint8Array | string>): Promise<ImportJobResponse> {
    if (!this.queue) throw errors.serviceUnavailable('imports are not available on this instance');
    const release = this.admission.admit(userId);
    return this.startAdmitted(userId, canCreateEntries, query, body, this.queue).finally(release);
  }

  private async startAdmitted(userId: string, canCreateEntries: boolean, query: ImportStartQuery, body: AsyncIterable<Uint8Array | string>, queue: ImportQueuePort): Promise<ImportJobResponse> {
    // Early, to spare the upload; the unique index decides below.
    if (await this.jobs.hasActive(userId)) throw errors.conflict(ACTIVE);
    const id = newId();
    const rows = await this.storeValidated(id, query, body);
    const now = this.now();
    const job: ImportJobDocument = {
      _id: id,
      user_id: userId,
      source: query.source,
      mode: query.mode ?? 'skip_existing',
      dry_run: query.dry_run,
      file_name: query.file ?? null,
      can_create_entries: canCreateEntries,
      status: 'queued',
      active: true,
      counts: { ...zeroCounts(), rows },
      errors: [],
      warnings: [],
      failure: null,
      rows_done: 0,
      created_at: now,
      started_at: null,
      finished_at: null,
    };
    try {
      await this.insertJob(job);
    } catch (error) {
      await this.jobs.deleteUpload(id);
      if (error instanceof ActiveImportExistsError) throw errors.conflict(ACTIVE);
      throw error;
    }
    try {
      await queue.enqueue(id.toHexString());
    } catch {
      // Not queued, so never run: nothing may stay behind that blocks the next import.
      await this.jobs.remove(id);
      await this.jobs.deleteUpload(id);
      throw errors.serviceUnavailable('the import could not be queued; try again');
    }
    return toJobResponse(this.category.id, job);
  }

  /**
   * Inserts of one user's jobs take turns in this process: racing inserts of one unique key deadlock with
   * each other on servers built on PostgreSQL (reported as WriteConflict, retried by the repository, and
   * a retried insert can deadlock again). Out of retries against other instances, a job that is active
   * now is the answer (409), as it would have been a moment later.
   */
  private insertJob(job: ImportJobDocument): Promise<void> {
    return this.inserting.use(job.user_id, async () => {
      try {
        await this.jobs.insert(job);
      } catch (error) {
        if (error instanceof TransactionContentionError && (await this.jobs.hasActive(job.user_id))) throw new ActiveImportExistsError('an import is already active', { cause: error });
        throw error;
      }
    });
  }

  /** Reads the upload through the parser once while storing it; returns its number of rows. */
  private async storeValidated(id: Id, query: ImportStartQuery, body: AsyncIterable<Uint8Array | string>): Promise<number> {
    const copy = new UploadCopy((n, data) => this.jobs.storeChunk(id, n, data, this.now()));
    let rows = 0;
    try {
      const parsed = parseImport(copy.through(body), { source: query.source as never, category: this.category.id as Category, fileName: query.file });
      for await (const row of parsed) if (row) rows++;
      if (!copy.complete) throw errors.validation('the file has data after its end', [{ path: 'body', message: 'data after the end of the file' }]);
      await copy.finish();
    } catch (error) {
      // A refused file (ImportFileError: 400/413) leaves nothing stored.
      await this.jobs.deleteUpload(id);
      throw error;
    }
    return rows;
  }

  async get(userId: string, id: string): Promise<ImportJobResponse> {
    const job = await this.jobs.findOfUser(userId, toId(id));
    if (!job) throw errors.notFound('import not found');
    return toJobResponse(this.category.id, job);
  }

  /** The user's jobs, newest first: offset pages or cursor pages, both with `next_cursor`. */
  async page(userId: string, query: ImportJobListQueryInput): Promise<Page<ImportJobResponse> & { next_cursor: string | null }> {
    const bound = { owner: userId, list: 'imports' };
    const total = await this.jobs.countOfUser(userId);
    const limit = query.limit ?? DEFAULT_LIMIT;
    let window = pageWindow(query.page, limit);
    let after: { createdAt: Date; id: Id } | null = null;
    let walk: { snapshotAt: number } = { snapshotAt: this.now().getTime() };
    if (query.cursor !== undefined) {
      const resumed = resumeWalk(this.cursors, query.cursor, bound, this.now().getTime());
      walk = resumed;
      const position = resumed.after as { t?: unknown; i?: unknown; n?: unknown } | null;
      if (position !== null) {
        if (typeof position?.t !== 'number' || typeof position.i !== 'string' || !isObjectIdHex(position.i) || typeof position.n !== 'number') {
          throw errors.validation('invalid cursor', [{ path: 'cursor', message: 'belongs to another query; start again with cursor=start' }]);
        }
        after = { createdAt: new Date(position.t), id: toId(position.i) };
        window = { page: Math.floor(position.n / limit) + 1, limit, skip: position.n };
      } else window = { page: 1, limit, skip: 0 };
    }
    const rows = await this.jobs.pageOfUser(userId, after, after ? 0 : window.skip, limit + 1);
    const page = rows.slice(0, limit);
    const served = window.skip + page.length;
    const last = page.at(-1);
    const next = nextCursor(this.cursors, bound, walk, last && { t: last.created_at.getTime(), i: last._id.toHexString(), n: served }, rows.length > limit);
    return { ...toPage(page.map((job) => toJobResponse(this.category.id, job)), window, total), next_cursor: next };
  }
}
