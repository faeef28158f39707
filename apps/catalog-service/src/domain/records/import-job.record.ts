import type { Id } from '../ids';
import type { ImportCounts, ImportJobStatus, ImportMode, RowError } from '../list-import';

/**
 * An import job: the public record and the checkpoint of its execution. `rows_done` is the
 * number of parsed rows whose effect (and counts) is committed: it moves only in the transaction that
 * applies the next batch, so a resumed job starts exactly after the last committed batch. `active` exists
 * while the job is queued or running: a unique partial index on `{user_id}` over it lets the database refuse
 * a second import of the same user in this category (each category has its own database).
 */
export interface ImportJobDocument {
  _id: Id;
  user_id: string;
  source: string;
  mode: ImportMode;
  dry_run: boolean;
  file_name: string | null;
  /** The credential held `catalog:write` when the import was requested: rows may create catalog entries. */
  can_create_entries: boolean;
  status: ImportJobStatus;
  active?: true;
  counts: ImportCounts;
  errors: RowError[];
  /** Rows applied with a remark (a value dropped or shortened); absent on jobs stored before it existed. */
  warnings?: RowError[];
  /** Why a failed job stopped (not a row's problem). */
  failure: string | null;
  rows_done: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at?: Date;
}

export class ActiveImportExistsError extends Error {
  override name = 'ActiveImportExistsError';
}
