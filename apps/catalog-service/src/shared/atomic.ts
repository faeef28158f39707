import type { Logger } from '@mt/logging';
import type { Connection, mongo } from 'mongoose';

export type Session = mongo.ClientSession | undefined;

/**
 * A unit of work is tried at most this many times when it keeps meeting concurrent writers. Generous: the
 * catalog's counter document is written by every creation, so N concurrent creations can need N attempts
 * (a list write, queued per user, rarely needs a second). Bounded, so a request never retries forever.
 */
export const TRANSACTION_ATTEMPTS = 50;
/** Upper bound of one backoff between attempts (ms). */
const MAX_BACKOFF_MS = 50;
/** A commit whose outcome the server could not report is retried this many times. */
const COMMIT_ATTEMPTS = 3;
/** WriteConflict: another transaction wrote the same document first. */
const WRITE_CONFLICT = 112;

/** The work kept conflicting with concurrent transactions on the same documents for every attempt. */
export class TransactionContentionError extends Error {
  override name = 'TransactionContentionError';
}

const hasLabel = (error: unknown, label: string): boolean =>
  typeof (error as { hasErrorLabel?: unknown } | null)?.hasErrorLabel === 'function' &&
  (error as mongo.MongoError).hasErrorLabel(label);

/** A conflict with a concurrent transaction: running the whole unit of work again can succeed. */
export const isTransientTransactionError = (error: unknown): boolean =>
  hasLabel(error, 'TransientTransactionError') || (error as { code?: unknown } | null)?.code === WRITE_CONFLICT;

/** Spreads retries of colliding transactions apart: exponential with full jitter, capped. */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt)));

/**
 * Runs a unit of work all-or-nothing. On a replica set or sharded cluster (the sandbox reports a
 * single-node replica set) that is a multi-document transaction; a transient conflict (a concurrent
 * transaction wrote one of its documents first) runs the whole unit again, at most TRANSACTION_ATTEMPTS
 * times, then gives up with a TransactionContentionError. A standalone mongod has no transactions: the work
 * then runs without one and a crash part-way can leave it half done, and concurrent units are not
 * serialised; start-up logs a warning once (deploy a replica set).
 */
export class AtomicRunner {
  private transactional = false;

  constructor(
    private readonly connection: Connection,
    private readonly logger: Logger,
  ) {}

  get usesTransactions(): boolean {
    return this.transactional;
  }

  /** Asks the server (once, at start-up) whether it supports transactions. */
  async detect(): Promise<void> {
    const db = this.connection.db;
    if (!db) throw new Error('mongodb not connected');
    const hello = await db.admin().command({ hello: 1 });
    this.transactional = typeof hello['setName'] === 'string' || hello['msg'] === 'isdbgrid';
    if (!this.transactional) {
      this.logger.warn('mongodb is a standalone server: list writes, bulk list operations and counters run without transactions');
    }
  }

  async run<T>(work: (session: Session) => Promise<T>): Promise<T> {
    if (!this.transactional) return work(undefined);
    const session = this.connection.getClient().startSession();
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.once(session, work);
        } catch (error) {
          if (!isTransientTransactionError(error)) throw error;
          if (attempt >= TRANSACTION_ATTEMPTS) {
            throw new TransactionContentionError(`transaction still conflicting after ${attempt} attempts`, { cause: error });
          }
          await backoff(attempt);
        }
      }
    } finally {
      await session.endSession();
    }
  }

  private async once<T>(session: mongo.ClientSession, work: (session: Session) => Promise<T>): Promise<T> {
    session.startTransaction();
    let value: T;
    try {
      value = await work(session);
    } catch (error) {
      if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
      throw error;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await session.commitTransaction();
        return value;
      } catch (error) {
        // The commit may have been applied: committing again is safe and tells (MongoDB's documented pattern).
        if (!hasLabel(error, 'UnknownTransactionCommitResult') || attempt >= COMMIT_ATTEMPTS) {
          if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
          throw error;
        }
      }
    }
  }
}
