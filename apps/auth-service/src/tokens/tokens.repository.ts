import { duplicateKeyFields, isDuplicateKeyError, retryTransient } from '@mt/stores';
import type { Scope } from '@mt/tokens';
import { Types, type Connection } from 'mongoose';
import { toObjectId } from '../shared/object-id';
import { tokenModel, type TokenDocument, type TokenModel } from './token.document';

export interface TokenRecord {
  id: string;
  userId: string;
  name: string;
  tokenHash: string;
  prefix: string;
  scopes: Scope[];
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
}

/** Another active token of the user already has this name. */
export class TokenNameTaken extends Error {
  override name = 'TokenNameTaken';
}

/** A concurrent creation took the same slot first. */
export class TokenSlotTaken extends Error {
  override name = 'TokenSlotTaken';
}

const toRecord = (doc: TokenDocument): TokenRecord => ({
  id: doc._id.toHexString(),
  userId: doc.userId.toHexString(),
  name: doc.name,
  tokenHash: doc.tokenHash,
  prefix: doc.prefix,
  scopes: doc.scopes,
  createdAt: doc.createdAt,
  expiresAt: doc.expiresAt,
  lastUsedAt: doc.lastUsedAt ?? null,
});

const activeFilter = (userId: Types.ObjectId, now: Date) => ({ userId, active: true, expiresAt: { $gt: now } });

export class TokensRepository {
  readonly model: TokenModel;

  constructor(connection: Connection) {
    this.model = tokenModel(connection);
  }

  ensureIndexes(): Promise<void> {
    return this.model.createIndexes();
  }

  /** Expired tokens release their name (and their slot) before a new token is added. */
  async deactivateExpired(userId: string, now: Date): Promise<void> {
    const _id = toObjectId(userId);
    if (_id) await this.model.updateMany({ userId: _id, active: true, expiresAt: { $lte: now } }, { $set: { active: false } });
  }

  /** Slots held by the user's active tokens. */
  async usedSlots(userId: string): Promise<number[]> {
    const _id = toObjectId(userId);
    if (!_id) return [];
    const docs = await this.model.find({ userId: _id, active: true }, { slot: 1 }).lean<Array<Pick<TokenDocument, 'slot'>>>();
    return docs.map((doc) => doc.slot);
  }

  async insert(input: Omit<TokenRecord, 'id' | 'lastUsedAt'> & { slot: number }): Promise<TokenRecord> {
    try {
      // Inserts meeting on a unique index: servers on PostgreSQL may report a deadlock (WriteConflict) instead of E11000.
      const created = await retryTransient(() =>
        this.model.create({
          ...input,
          userId: new Types.ObjectId(input.userId),
          active: true,
          lastUsedAt: null,
          revokedAt: null,
        }),
      );
      return toRecord(created.toObject());
    } catch (error) {
      if (isDuplicateKeyError(error)) {
        const fields = duplicateKeyFields(error).join(' ');
        if (/slot/.test(fields)) throw new TokenSlotTaken();
        if (/name/.test(fields)) throw new TokenNameTaken();
      }
      throw error;
    }
  }

  async listActive(userId: string, now: Date): Promise<TokenRecord[]> {
    const _id = toObjectId(userId);
    if (!_id) return [];
    const docs = await this.model.find(activeFilter(_id, now)).sort({ createdAt: -1, _id: -1 }).lean<TokenDocument[]>();
    return docs.map(toRecord);
  }

  async findActiveOfUser(userId: string, tokenId: string, now: Date): Promise<TokenRecord | undefined> {
    const _id = toObjectId(userId);
    if (!_id) return undefined;
    const doc = await this.model.findOne({ ...activeFilter(_id, now), _id: new Types.ObjectId(tokenId) }).lean<TokenDocument>();
    return doc ? toRecord(doc) : undefined;
  }

  /** True when this call revoked it (false: already revoked meanwhile). */
  async revoke(tokenId: string, now: Date): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: new Types.ObjectId(tokenId), active: true },
      { $set: { active: false, revokedAt: now } },
    );
    return result.modifiedCount === 1;
  }

  async findActiveByHash(tokenHash: string, now: Date): Promise<TokenRecord | undefined> {
    const doc = await this.model.findOne({ tokenHash, active: true, expiresAt: { $gt: now } }).lean<TokenDocument>();
    return doc ? toRecord(doc) : undefined;
  }

  /** Writes last_used_at unless it was written less than `minIntervalMs` ago: at most once per interval. */
  async touchLastUsed(tokenId: string, now: Date, minIntervalMs: number): Promise<boolean> {
    const result = await this.model.updateOne(
      {
        _id: new Types.ObjectId(tokenId),
        $or: [{ lastUsedAt: null }, { lastUsedAt: { $lte: new Date(now.getTime() - minIntervalMs) } }],
      },
      { $set: { lastUsedAt: now } },
    );
    return result.modifiedCount === 1;
  }

  async hashesOfUser(userId: string): Promise<string[]> {
    const _id = toObjectId(userId);
    if (!_id) return [];
    const docs = await this.model.find({ userId: _id }, { tokenHash: 1 }).lean<Array<Pick<TokenDocument, 'tokenHash'>>>();
    return docs.map((doc) => doc.tokenHash);
  }

  async deleteAllOfUser(userId: string): Promise<void> {
    const _id = toObjectId(userId);
    if (_id) await this.model.deleteMany({ userId: _id });
  }
}
