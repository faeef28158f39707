import type { Session } from './atomic.port';
import type { Id } from '../ids';
import type { ImportCounts, RowError } from '../list-import';
import type { ImportJobDocument } from '../records/import-job.record';

/** Import jobs and their stored uploads (data/import-jobs.repository.ts). */
export interface ImportJobsStore {
  storeChunk(uploadId: Id, n: number, data: Buffer, now: Date): Promise<void>;
  readUpload(uploadId: Id): AsyncIterable<Buffer>;
  deleteUpload(uploadId: Id): Promise<void>;
  hasActive(userId: string): Promise<boolean>;
  /** ActiveImportExistsError when the user already has one queued or running. */
  insert(job: ImportJobDocument): Promise<void>;
  findOfUser(userId: string, id: Id): Promise<ImportJobDocument | null>;
  findById(id: Id): Promise<ImportJobDocument | null>;
  countOfUser(userId: string): Promise<number>;
  pageOfUser(userId: string, after: { createdAt: Date; id: Id } | null, skip: number, limit: number): Promise<ImportJobDocument[]>;
  start(id: Id, now: Date): Promise<ImportJobDocument | null>;
  checkpoint(id: Id, from: number, to: number, delta: Partial<ImportCounts>, rows: { errors: RowError[]; warnings: RowError[] }, session: Session): Promise<boolean>;
  finish(id: Id, status: 'completed' | 'failed', now: Date, failure?: string | null): Promise<void>;
  remove(id: Id): Promise<void>;
  /** The ids of the removed jobs' uploads. */
  deleteAllOfUser(userId: string, session: Session): Promise<Id[]>;
  deleteUploads(ids: readonly Id[]): Promise<void>;
}
