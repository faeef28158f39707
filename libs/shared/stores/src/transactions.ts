import type { Connection, mongo } from 'mongoose';
import type { Logger } from 'pino';
import { MONGO_MAX_POOL_SIZE } from './mongo';
import { Semaphore } from './semaphore';
import { retryTransient, TRANSIENT_RETRY, type RetryPolicy } from './transient-conflicts';

export type Session = mongo.ClientSession | undefined;

export interface TransactionRunnerOptions {
  /** Transactions of this process in flight at once (default: a quarter of the connection pool). */
  maxConcurrent?: number;
  retry?: RetryPolicy;
}

const UNKNOWN_COMMIT_RESULT = 'UnknownTransactionCommitResult';
const COMMIT_ATTEMPTS = 3;

/**
 * Runs a unit of work all-or-nothing. On a replica set or sharded cluster (the test sandbox reports a
 * single-node replica set) that is a multi-document transaction; a standalone mongod has none, the work
 * then runs without one (a crash part-way can leave it half done) and `detect` logs a warning once.
 *
 * Transient conflicts (another writer got there first) retry the whole unit a bounded number of times
 * (TRANSIENT_RETRY), never the driver's open-ended 120 s `withTransaction` loop.
 *
 * Transactions in flight are capped below the connection pool's size. A transaction blocked on a lock
 * holds a pooled connection while it waits; with as many of them as pooled connections, the transaction
 * holding the lock cannot get a connection for its next statement or its commit, and everyone waits for
 * the socket timeout: a deadlock that the database cannot see (25 concurrent identical creates with a pool
 * of 20 ended in 500s; bench/README.md "Figures behind decisions in the code"). With the cap, the holder
 * always finds a connection.
 */
export class TransactionRunner {
  private transactional = false;
  private readonly slots: Semaphore;
  private readonly retry: RetryPolicy;

  constructor(
    private readonly connection: Connection,
    private readonly logger: Logger,
    options: TransactionRunnerOptions = {},
  ) {
    this.slots = new Semaphore(options.maxConcurrent ?? Math.max(1, Math.floor(MONGO_MAX_POOL_SIZE / 4)));
    this.retry = options.retry ?? TRANSIENT_RETRY;
  }

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
      this.logger.warn('mongodb is a standalone server: multi-document writes run without transactions');
    }
  }

  run<T>(work: (session: Session) => Promise<T>): Promise<T> {
    if (!this.transactional) return retryTransient(() => work(undefined), this.retry);
    return retryTransient(() => this.slots.use(() => this.once(work)), this.retry);
  }

  private async once<T>(work: (session: mongo.ClientSession) => Promise<T>): Promise<T> {
    const session = this.connection.getClient().startSession();
    try {
      session.startTransaction();
      let value: T;
      try {
        value = await work(session);
      } catch (error) {
        await session.abortTransaction().catch(() => undefined);
        throw error;
      }
      await commit(session);
      return value;
    } finally {
      await session.endSession().catch(() => undefined);
    }
  }
}

/** Commits; a commit whose outcome is unknown (connection lost on the way) is sent again, which is safe. */
async function commit(session: mongo.ClientSession): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await session.commitTransaction();
      return;
    } catch (error) {
      const unknown = (error as { hasErrorLabel?: (label: string) => boolean }).hasErrorLabel?.(
        UNKNOWN_COMMIT_RESULT,
      );
      if (!unknown || attempt >= COMMIT_ATTEMPTS) throw error;
    }
  }
}
