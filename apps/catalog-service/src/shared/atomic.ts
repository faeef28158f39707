import type { Logger } from '@mt/logging';
import type { Connection, mongo } from 'mongoose';

export type Session = mongo.ClientSession | undefined;

/**
 * Runs a unit of work all-or-nothing. On a replica set or sharded cluster (the sandbox reports a
 * single-node replica set) that is a multi-document transaction, retried by the driver on transient
 * write conflicts. A standalone mongod has no transactions: the work then runs without one and a
 * crash part-way can leave it half done; start-up logs a warning once (deploy a replica set).
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
      this.logger.warn('mongodb is a standalone server: bulk list operations and counters run without transactions');
    }
  }

  async run<T>(work: (session: Session) => Promise<T>): Promise<T> {
    if (!this.transactional) return work(undefined);
    const session = this.connection.getClient().startSession();
    try {
      let result: { value: T } | undefined;
      await session.withTransaction(async () => {
        result = { value: await work(session) };
      });
      if (!result) throw new Error('transaction finished without a result');
      return result.value;
    } finally {
      await session.endSession();
    }
  }
}
