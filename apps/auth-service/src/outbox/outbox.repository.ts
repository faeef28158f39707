import { Types, type Connection } from 'mongoose';
import { outboxModel, type OutboxDocument, type OutboxKind, type OutboxModel } from './outbox.document';

export interface OutboxEntry {
  id: string;
  kind: OutboxKind;
  userId: string;
  cutoffMs: number | null;
  tokenHashes: string[];
  /** PATs whose gateway cache entries get a re-introspect marker (a role taken away). */
  staleTokenHashes: string[];
  occurredAt: Date;
  applied: boolean;
}

const toEntry = (doc: OutboxDocument): OutboxEntry => ({
  id: doc._id.toHexString(),
  kind: doc.kind,
  userId: doc.userId,
  cutoffMs: doc.cutoffMs ?? null,
  tokenHashes: doc.tokenHashes ?? [],
  staleTokenHashes: doc.staleTokenHashes ?? [],
  occurredAt: doc.occurredAt,
  applied: doc.appliedAt !== undefined && doc.appliedAt !== null,
});

export interface NewOutboxEntry {
  kind: OutboxKind;
  userId: string;
  cutoffMs?: number;
  tokenHashes?: string[];
  staleTokenHashes?: string[];
  occurredAt?: Date;
}

export class OutboxRepository {
  readonly model: OutboxModel;

  constructor(connection: Connection) {
    this.model = outboxModel(connection);
  }

  ensureIndexes(): Promise<void> {
    return this.model.createIndexes();
  }

  async add(entry: NewOutboxEntry): Promise<OutboxEntry> {
    const created = await this.model.create({
      kind: entry.kind,
      userId: entry.userId,
      cutoffMs: entry.cutoffMs,
      tokenHashes: entry.tokenHashes ?? [],
      ...(entry.staleTokenHashes ? { staleTokenHashes: entry.staleTokenHashes } : {}),
      occurredAt: entry.occurredAt ?? new Date(),
    });
    return toEntry(created.toObject());
  }

  /**
   * Adds PAT hashes to evict (`tokenHashes`) or to re-introspect (`staleTokenHashes`) — a set: adding them
   * again is harmless — and returns the entry as stored.
   */
  async addTokenHashes(id: string, hashes: string[], field: 'tokenHashes' | 'staleTokenHashes' = 'tokenHashes'): Promise<OutboxEntry | undefined> {
    const doc = await this.model
      .findOneAndUpdate({ _id: new Types.ObjectId(id) }, { $addToSet: { [field]: { $each: hashes } } }, { returnDocument: 'after' })
      .lean<OutboxDocument>();
    return doc ? toEntry(doc) : undefined;
  }

  async markApplied(id: string): Promise<void> {
    await this.model.updateOne({ _id: new Types.ObjectId(id) }, { $set: { appliedAt: new Date() } });
  }

  async markPublished(id: string): Promise<void> {
    await this.model.updateOne({ _id: new Types.ObjectId(id) }, { $set: { publishedAt: new Date() } });
  }

  async recordAttempt(id: string): Promise<void> {
    await this.model.updateOne({ _id: new Types.ObjectId(id) }, { $inc: { attempts: 1 } });
  }

  /** Oldest first; `minAgeMs` leaves fresh entries to the request that is publishing them right now. */
  async pending(limit: number, minAgeMs: number): Promise<OutboxEntry[]> {
    const docs = await this.model
      .find({ publishedAt: null, occurredAt: { $lte: new Date(Date.now() - minAgeMs) } })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<OutboxDocument[]>();
    return docs.map(toEntry);
  }

  async findById(id: string): Promise<OutboxEntry | undefined> {
    const doc = await this.model.findById(new Types.ObjectId(id)).lean<OutboxDocument>();
    return doc ? toEntry(doc) : undefined;
  }

  /** Cut-offs of deleted users newer than `sinceMs` (the users themselves are gone). */
  async deletionCutoffsSince(sinceMs: number): Promise<Array<{ userId: string; cutoffMs: number }>> {
    const docs = await this.model
      .find({ kind: 'user-deleted', cutoffMs: { $gt: sinceMs } }, { userId: 1, cutoffMs: 1 })
      .lean<Array<Pick<OutboxDocument, 'userId' | 'cutoffMs'>>>();
    return docs.map((doc) => ({ userId: doc.userId, cutoffMs: doc.cutoffMs ?? 0 }));
  }
}
