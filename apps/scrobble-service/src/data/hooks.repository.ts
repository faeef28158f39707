import { isDuplicateKeyError, isTransientConflict, retryTransient } from '@mt/stores';
import { mongo } from 'mongoose';
import { randomInt } from 'node:crypto';
import type { Hook } from '../domain/ports';
import type { Server } from '../domain/scrobble-event';
import type { ShardingDeclaration } from '@mt/stores';
import { COLLECTIONS, objectIdOf, type ScrobbleDatabase } from './database';

interface HookDocument {
  _id: mongo.ObjectId;
  user_id: string;
  /** 0 … limit-1: a unique (user_id, slot) index makes the per-user limit hold under concurrent creations. */
  slot: number;
  server: Server;
  name: string;
  usernames: string[];
  threshold: number;
  /** SHA-256 of the secret, hex. */
  secret_hash: string;
  created_at: Date;
  last_event_at: Date | null;
}

const toHook = (doc: HookDocument): Hook => ({
  id: doc._id.toHexString(),
  userId: doc.user_id,
  server: doc.server,
  name: doc.name,
  usernames: doc.usernames,
  threshold: doc.threshold,
  createdAt: doc.created_at,
  lastEventAt: doc.last_event_at,
});

/** Every slot of the user is taken: the limit is reached. */
export class HookLimitReached extends Error {}

/** Unsharded: a hook is unique by its secret's hash (every delivery finds it so) and by slot per user. */
export const HOOK_SHARDING: ShardingDeclaration = { collection: COLLECTIONS.hooks, unsharded: 'unique by secret hash and by slot per user: no shard key starts both; a few per user' };

export class HooksRepository {
  constructor(private readonly db: ScrobbleDatabase) {}

  private get hooks() {
    return this.db.collection<HookDocument>(COLLECTIONS.hooks);
  }

  async ensureIndexes(): Promise<void> {
    await this.hooks.createIndex({ secret_hash: 1 }, { unique: true, name: 'secret_hash' });
    await this.hooks.createIndex({ user_id: 1, slot: 1 }, { unique: true, name: 'user_slot' });
  }

  /**
   * Takes a free slot at random; a slot a concurrent creation took is retried with another. Random rather than
   * the lowest: racing creations then mostly land on different slots, where all racing for the lowest would win
   * one per round and keep the last ones waiting past the gateway's timeout.
   */
  async create(input: Omit<Hook, 'id' | 'lastEventAt'> & { secretHash: Buffer }, limit: number): Promise<Hook> {
    // Each failed attempt means another creation won a slot (or collided with one), so twice the limit is ample.
    for (let attempt = 0; attempt < limit * 2; attempt++) {
      const used = new Set((await this.hooks.find({ user_id: input.userId }, { projection: { slot: 1 } }).toArray()).map((doc) => doc.slot));
      const free = Array.from({ length: limit }, (_, index) => index).filter((index) => !used.has(index));
      if (!free.length) throw new HookLimitReached();
      const slot = free[randomInt(free.length)] as number;
      const doc: HookDocument = {
        _id: new mongo.ObjectId(),
        user_id: input.userId,
        slot,
        server: input.server,
        name: input.name,
        usernames: input.usernames,
        threshold: input.threshold,
        secret_hash: input.secretHash.toString('hex'),
        created_at: input.createdAt,
        last_event_at: null,
      };
      try {
        await this.hooks.insertOne(doc);
        return toHook(doc);
      } catch (error) {
        // A concurrent creation took the slot (duplicate key, or a write conflict on servers that report
        // it so): read the slots again at once rather than backing off, so a loser is answered quickly.
        if (!isDuplicateKeyError(error) && !isTransientConflict(error)) throw error;
      }
    }
    throw new HookLimitReached();
  }

  async list(userId: string): Promise<Hook[]> {
    return (await this.hooks.find({ user_id: userId }).sort({ created_at: -1, _id: -1 }).toArray()).map(toHook);
  }

  /** The hook with this secret hash and its stored hash (compared by the caller in constant time). */
  async findBySecretHash(hash: Buffer): Promise<{ hook: Hook; storedHash: Buffer } | null> {
    const doc = await this.hooks.findOne({ secret_hash: hash.toString('hex') });
    return doc ? { hook: toHook(doc), storedHash: Buffer.from(doc.secret_hash, 'hex') } : null;
  }

  async get(hookId: string): Promise<Hook | null> {
    const id = objectIdOf(hookId);
    const doc = id ? await this.hooks.findOne({ _id: id }) : null;
    return doc ? toHook(doc) : null;
  }

  async delete(userId: string, hookId: string): Promise<boolean> {
    const id = objectIdOf(hookId);
    if (!id) return false;
    return (await this.hooks.deleteOne({ _id: id, user_id: userId })).deletedCount === 1;
  }

  /** Moves `last_event_at` forward only (events are handled out of order). */
  async touch(hookId: string, at: Date): Promise<void> {
    const id = objectIdOf(hookId);
    if (!id) return;
    await retryTransient(() => this.hooks.updateOne({ _id: id, $or: [{ last_event_at: null }, { last_event_at: { $lt: at } }] }, { $set: { last_event_at: at } }));
  }

  async idsOf(userId: string): Promise<string[]> {
    return (await this.hooks.find({ user_id: userId }, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id.toHexString());
  }

  async deleteUser(userId: string): Promise<void> {
    await this.hooks.deleteMany({ user_id: userId });
  }
}
