import { MAX_KEPT_ERRORS, MAX_KEPT_ROW_BYTES, MAX_ROW_MESSAGE_BYTES, type RowError } from '../../domain/list-import';
/** A kept `{ row, message }` beyond its message's bytes, as BSON stores it in the array (an upper bound). */
const ENTRY_OVERHEAD_BYTES = 40;

const storedSize = (entry: RowError): number => Buffer.byteLength(entry.message) + ENTRY_OVERHEAD_BYTES;

const ELLIPSIS = '…';

/** `message` cut to at most MAX_ROW_MESSAGE_BYTES, on a character boundary. */
export function boundedMessage(message: string): string {
  if (Buffer.byteLength(message) <= MAX_ROW_MESSAGE_BYTES) return message;
  const room = MAX_ROW_MESSAGE_BYTES - Buffer.byteLength(ELLIPSIS);
  let kept = '';
  let bytes = 0;
  for (const char of message) {
    bytes += Buffer.byteLength(char);
    if (bytes > room) break;
    kept += char;
  }
  return kept + ELLIPSIS;
}

/** What one list (errors or warnings) of a job already holds, and what of a batch's rows still fits. */
class KeptList {
  private count: number;
  private bytes: number;

  constructor(kept: readonly RowError[]) {
    this.count = kept.length;
    this.bytes = kept.reduce((sum, entry) => sum + storedSize(entry), 0);
  }

  fit(rows: readonly RowError[]): RowError[] {
    const fitting: RowError[] = [];
    let { count, bytes } = this;
    for (const { row, message } of rows) {
      const entry = { row, message: boundedMessage(message) };
      const size = storedSize(entry);
      if (count >= MAX_KEPT_ERRORS || bytes + size > MAX_KEPT_ROW_BYTES) break;
      fitting.push(entry);
      count += 1;
      bytes += size;
    }
    return fitting;
  }

  add(rows: readonly RowError[]): void {
    this.count += rows.length;
    this.bytes += rows.reduce((sum, entry) => sum + storedSize(entry), 0);
  }
}

/**
 * The row errors and warnings a job stores, bounded in count and in bytes: a hostile file's rows can fail
 * with long messages (a value echoed back), and a finished job is kept for weeks. `counts.failed` still
 * counts every failed row. The runner works on one job at a time, batch after batch, so the state here
 * follows the stored job: `fit` before a batch's transaction, `add` once it committed.
 */
export class KeptRowMessages {
  private readonly errors: KeptList;
  private readonly warnings: KeptList;

  constructor(job: { errors: readonly RowError[]; warnings?: readonly RowError[] }) {
    this.errors = new KeptList(job.errors);
    this.warnings = new KeptList(job.warnings ?? []);
  }

  fit(batch: { errors: readonly RowError[]; warnings: readonly RowError[] }): { errors: RowError[]; warnings: RowError[] } {
    return { errors: this.errors.fit(batch.errors), warnings: this.warnings.fit(batch.warnings) };
  }

  add(stored: { errors: readonly RowError[]; warnings: readonly RowError[] }): void {
    this.errors.add(stored.errors);
    this.warnings.add(stored.warnings);
  }
}
