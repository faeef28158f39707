import { mongo } from 'mongoose';
import { retryTransient, isDuplicateKeyError, type ShardingDeclaration } from '@mt/stores';
import type { Session } from './atomic';
import { COLLECTIONS, type CatalogDatabase } from './database';
import { MAX_KEPT_ERRORS, zeroCounts, type ImportCounts, type RowError } from '../domain/list-import';
import { ActiveImportExistsError, type ImportJobDocument } from '../domain/records/import-job.record';
import type { ImportJobsStore } from '../domain/ports/import-jobs-store.port';

/** Finished jobs are kept this long, then removed by a TTL index (a user's job history does not grow without end). */
export const FINISHED_JOB_RETENTION_MS = 30 * 24 * 3600 * 1000;
/** A stored upload is removed when its job finishes, and in any case after this (an upload whose request died part-way). */
export const UPLOAD_RETENTION_MS = 24 * 3600 * 1000;

/** One piece of a stored upload (the file is parsed again from here by the job, on any instance). */
interface UploadChunkDocument {
  _id: mongo.ObjectId;
  upload_id: mongo.ObjectId;
  n: number;
  data: mongo.Binary;
  expires_at: Date;
}

/** Import jobs by user: one active import per user is a unique index on `user_id`, which the key starts. */
export const IMPORT_JOB_SHARDING: ShardingDeclaration = {
  collection: COLLECTIONS.importJobs,
  shardKey: { user_id: 1 },
  scatterGather: ['start-up: the active jobs to queue again (index `active`)', 'a job run by its id alone (the queue carries only the id)'],
};

/** Uploaded files by upload: a job reads its chunks in order from one shard. */
export const IMPORT_UPLOAD_SHARDING: ShardingDeclaration = { collection: COLLECTIONS.importUploads, shardKey: { upload_id: 1, n: 1 }, scatterGather: [] };

export class ImportJobsRepository implements ImportJobsStore {
  constructor(private readonly db: CatalogDatabase) {}

  private get jobs() {
    return this.db.collection<ImportJobDocument>(COLLECTIONS.importJobs);
  }

  private get uploads() {
    return this.db.collection<UploadChunkDocument>(COLLECTIONS.importUploads);
  }

  async ensureIndexes(): Promise<void> {
    await this.jobs.createIndexes([
      // One queued or running import per user (and category: one database per category).
      { name: 'one_active_import_per_user', key: { user_id: 1 }, unique: true, partialFilterExpression: { active: { $exists: true } } },
      { name: 'user_newest', key: { user_id: 1, created_at: -1, _id: -1 } },
      { name: 'active', key: { active: 1 }, partialFilterExpression: { active: { $exists: true } } },
      { name: 'finished_ttl', key: { expires_at: 1 }, expireAfterSeconds: 0 },
    ]);
    await this.uploads.createIndexes([
      { name: 'upload_chunks', key: { upload_id: 1, n: 1 }, unique: true },
      { name: 'upload_ttl', key: { expires_at: 1 }, expireAfterSeconds: 0 },
    ]);
  }

  async storeChunk(uploadId: mongo.ObjectId, n: number, data: Buffer, now: Date): Promise<void> {
    await this.uploads.insertOne({ _id: new mongo.ObjectId(), upload_id: uploadId, n, data: new mongo.Binary(data), expires_at: new Date(now.getTime() + UPLOAD_RETENTION_MS) });
  }

  /** The stored file, piece by piece in order (one piece in memory at a time). */
  async *readUpload(uploadId: mongo.ObjectId): AsyncGenerator<Buffer> {
    const cursor = this.uploads.find({ upload_id: uploadId }).sort({ n: 1 }).batchSize(2);
    for await (const chunk of cursor) yield Buffer.from(chunk.data.buffer);
  }

  async deleteUpload(uploadId: mongo.ObjectId): Promise<void> {
    await this.uploads.deleteMany({ upload_id: uploadId });
  }

  hasActive(userId: string): Promise<boolean> {
    return this.jobs.countDocuments({ user_id: userId, active: { $exists: true } }, { limit: 1 }).then((n) => n > 0);
  }

  /** Inserts a queued job; ActiveImportExistsError when the user already has one queued or running. */
  async insert(job: ImportJobDocument): Promise<void> {
    try {
      // Inserts meeting on the unique index: servers on PostgreSQL may report a deadlock (WriteConflict) instead of E11000.
      await retryTransient(() => this.jobs.insertOne(job));
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new ActiveImportExistsError('an import is already active', { cause: error });
      throw error;
    }
  }

  findOfUser(userId: string, id: mongo.ObjectId): Promise<ImportJobDocument | null> {
    return this.jobs.findOne({ _id: id, user_id: userId });
  }

  findById(id: mongo.ObjectId): Promise<ImportJobDocument | null> {
    return this.jobs.findOne({ _id: id });
  }

  countOfUser(userId: string): Promise<number> {
    return this.jobs.countDocuments({ user_id: userId });
  }

  /** The user's jobs, newest first, after `after` (the last job served) when given. */
  pageOfUser(userId: string, after: { createdAt: Date; id: mongo.ObjectId } | null, skip: number, limit: number): Promise<ImportJobDocument[]> {
    const filter: mongo.Filter<ImportJobDocument> = { user_id: userId };
    if (after) filter.$or = [{ created_at: { $lt: after.createdAt } }, { created_at: after.createdAt, _id: { $lt: after.id } }];
    return this.jobs.find(filter).sort({ created_at: -1, _id: -1 }).skip(skip).limit(limit).toArray();
  }

  /** The ids of every queued or running job (start-up hands them to the queue again). */
  async activeIds(): Promise<mongo.ObjectId[]> {
    const rows = await this.jobs.find({ active: { $exists: true } }, { projection: { _id: 1 } }).toArray();
    return rows.map((row) => row._id);
  }

  /**
   * Marks the job running (keeping the first start time) and returns it; null when it is finished or gone.
   * A dry run writes nothing but its counts, so a resumed dry run starts again from its first row.
   */
  async start(id: mongo.ObjectId, now: Date): Promise<ImportJobDocument | null> {
    await this.jobs.updateOne({ _id: id, active: { $exists: true }, started_at: null }, { $set: { started_at: now } });
    const job = await this.jobs.findOne({ _id: id, active: { $exists: true } });
    if (job?.dry_run && job.rows_done > 0) {
      await this.jobs.updateOne({ _id: id, active: { $exists: true } }, { $set: { rows_done: 0, errors: [], warnings: [], counts: { ...zeroCounts(), rows: job.counts.rows } } });
    }
    return this.jobs.findOneAndUpdate({ _id: id, active: { $exists: true } }, { $set: { status: 'running' } }, { returnDocument: 'after' });
  }

  /**
   * The checkpoint of one batch, in the batch's transaction: from `from` rows done to `to`, adding the
   * batch's counts, errors and warnings. False when the job is not at `from` any more (another worker took it over, or
   * it was removed with its account): the caller must abort the batch.
   */
  async checkpoint(id: mongo.ObjectId, from: number, to: number, delta: Partial<ImportCounts>, rows: { errors: RowError[]; warnings: RowError[] }, session: Session): Promise<boolean> {
    const inc = Object.fromEntries(Object.entries(delta).filter(([, n]) => n).map(([key, n]) => [`counts.${key}`, n]));
    const update: mongo.UpdateFilter<ImportJobDocument> = { $set: { rows_done: to } };
    if (Object.keys(inc).length) update.$inc = inc;
    const push: Record<string, { $each: RowError[]; $slice: number }> = {};
    if (rows.errors.length) push['errors'] = { $each: rows.errors, $slice: MAX_KEPT_ERRORS };
    if (rows.warnings.length) push['warnings'] = { $each: rows.warnings, $slice: MAX_KEPT_ERRORS };
    if (Object.keys(push).length) update.$push = push as mongo.UpdateFilter<ImportJobDocument>['$push'];
    const result = await this.jobs.updateOne({ _id: id, status: 'running', rows_done: from }, update, { session });
    return result.matchedCount === 1;
  }

  async finish(id: mongo.ObjectId, status: 'completed' | 'failed', now: Date, failure: string | null = null): Promise<void> {
    await this.jobs.updateOne(
      { _id: id, active: { $exists: true } },
      { $set: { status, finished_at: now, failure, expires_at: new Date(now.getTime() + FINISHED_JOB_RETENTION_MS) }, $unset: { active: '' } },
    );
  }

  /** Removes a job that never started (its queueing failed). */
  async remove(id: mongo.ObjectId): Promise<void> {
    await this.jobs.deleteOne({ _id: id });
  }

  /** Account deletion, in its transaction: the user's jobs go (a running one finds its record gone and stops). */
  async deleteAllOfUser(userId: string, session: Session): Promise<mongo.ObjectId[]> {
    const ids = (await this.jobs.find({ user_id: userId }, { projection: { _id: 1 }, session }).toArray()).map((row) => row._id);
    if (ids.length) await this.jobs.deleteMany({ user_id: userId }, { session });
    return ids;
  }

  async deleteUploads(ids: readonly mongo.ObjectId[]): Promise<void> {
    if (ids.length) await this.uploads.deleteMany({ upload_id: { $in: [...ids] } });
  }
}
