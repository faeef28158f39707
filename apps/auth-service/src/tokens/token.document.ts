import type { Scope } from '@mt/tokens';
import type { ShardingDeclaration } from '@mt/stores';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface TokenDocument {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  name: string;
  /** SHA-256 of the token; the token itself is never stored. */
  tokenHash: string;
  /** The first 8 characters, safe to display. */
  prefix: string;
  scopes: Scope[];
  /** False once revoked or found expired; only active tokens hold their name and their slot. */
  active: boolean;
  /**
   * One of the user's MAX_ACTIVE_TOKENS slots (0–49), unique among active tokens: the unique index
   * makes the per-user limit race-free, as it does for names.
   */
  slot: number;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Expired and revoked tokens are purged this long after their expiry. */
export const TOKEN_PURGE_AFTER_SECONDS = 30 * 24 * 3600;

const tokenSchema = new Schema<TokenDocument>(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    name: { type: String, required: true },
    tokenHash: { type: String, required: true },
    prefix: { type: String, required: true },
    scopes: { type: [String], required: true },
    active: { type: Boolean, required: true },
    slot: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    lastUsedAt: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
  },
  { collection: 'tokens', versionKey: false, strict: 'throw' },
);

/**
 * Unsharded: a token is unique by its hash (introspection finds it by that alone) and its name and slot are
 * unique per user; no shard key starts both. At most 50 active tokens per user keep it small.
 */
export const TOKEN_SHARDING: ShardingDeclaration = { collection: 'tokens', unsharded: 'unique by hash and unique per user: no shard key starts both; small' };
tokenSchema.index({ tokenHash: 1 }, { unique: true, name: 'token_hash_unique' });
// Name uniqueness and the token limit among a user's active tokens, enforced by indexes (no check-then-insert race).
tokenSchema.index({ userId: 1, name: 1 }, { unique: true, partialFilterExpression: { active: true }, name: 'active_name_unique' });
tokenSchema.index({ userId: 1, slot: 1 }, { unique: true, partialFilterExpression: { active: true }, name: 'active_slot_unique' });
tokenSchema.index({ userId: 1, createdAt: -1 }, { name: 'user_tokens' });
tokenSchema.index({ expiresAt: 1 }, { expireAfterSeconds: TOKEN_PURGE_AFTER_SECONDS, name: 'expired_purge' });

export type TokenModel = Model<TokenDocument>;

export const tokenModel = (connection: Connection): TokenModel =>
  (connection.models['AccessToken'] as TokenModel | undefined) ?? connection.model<TokenDocument>('AccessToken', tokenSchema);
