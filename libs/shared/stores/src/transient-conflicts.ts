import { backoffDelay, sleep } from './backoff';

/** MongoDB's WriteConflict. */
const WRITE_CONFLICT = 112;
const TRANSIENT_LABEL = 'TransientTransactionError';

interface LabelledError {
  code?: unknown;
  hasErrorLabel?: (label: string) => boolean;
}

/**
 * A write that failed only because another write got there at the same time, and that succeeds when
 * simply tried again: MongoDB labels these `TransientTransactionError` inside a transaction and reports
 * `WriteConflict` (112). MongoDB-compatible servers built on PostgreSQL (the test sandbox, DocumentDB)
 * report a detected deadlock or a serialization failure as `WriteConflict` too, sometimes as a
 * per-document write error without the label, and outside transactions as well. The write was not
 * applied, so trying it again is safe.
 */
export function isTransientConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, hasErrorLabel } = error as LabelledError;
  return (
    code === WRITE_CONFLICT ||
    (typeof hasErrorLabel === 'function' && hasErrorLabel.call(error, TRANSIENT_LABEL))
  );
}

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** Full-jitter exponential backoff between tries: random in [0, min(max, base × 2^(try-1))]. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Ten tries within about a second of waiting in all: enough for a burst of identical writes to
 * sort itself out (each conflict means another writer made progress), short enough that a conflict
 * that keeps coming back is reported (500) long before a client or the gateway gives up.
 */
export const TRANSIENT_RETRY: RetryPolicy = { attempts: 10, baseDelayMs: 10, maxDelayMs: 200 };

/**
 * The work kept meeting concurrent writers on every attempt: nothing was applied, and the caller may try
 * again later (the error middleware answers 503).
 */
export class TransactionContentionError extends Error {
  override name = 'TransactionContentionError';
}

/** Runs `work`, trying it again after a transient conflict, at most `policy.attempts` times in all. */
export async function retryTransient<T>(
  work: () => Promise<T>,
  policy: RetryPolicy = TRANSIENT_RETRY,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isTransientConflict(error)) throw error;
      if (attempt >= policy.attempts) throw new TransactionContentionError(`still conflicting after ${attempt} attempts`, { cause: error });
      await sleep(backoffDelay(attempt, policy.baseDelayMs, policy.maxDelayMs));
    }
  }
}
