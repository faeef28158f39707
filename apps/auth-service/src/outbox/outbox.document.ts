import type { ShardingDeclaration } from '@mt/stores';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/**
 * What must reach Redis after a change in MongoDB:
 * - `jwt-cutoff`: a password change or a role taken away — mirror the user's JWT cut-off (a role change also
 *   marks the user's PATs for re-introspection: `staleTokenHashes`);
 * - `user-deleted`: an account deletion — cut-off, PAT cache evictions and the `user.deleted` event;
 * - `pat-revoked`: a revocation — evict the gateway's cache entry of the token.
 */
export type OutboxKind = 'jwt-cutoff' | 'user-deleted' | 'pat-revoked';

export interface OutboxDocument {
  _id: Types.ObjectId;
  kind: OutboxKind;
  userId: string;
  /** Epoch ms; JWTs of the user with a smaller `iat_ms` are rejected. */
  cutoffMs?: number;
  /** SHA-256 hashes of PATs whose gateway cache entries must go. */
  tokenHashes: string[];
  /**
   * jwt-cutoff of a role taken away: hashes of PATs that stay valid but whose cached scopes are stale — their
   * gateway cache entries get a re-introspect marker, not a tombstone (so they answer 403, not 401, on
   * `catalog:moderate` routes, and keep working elsewhere).
   */
  staleTokenHashes?: string[];
  occurredAt: Date;
  /** user-deleted only: when the user and their tokens were removed from MongoDB. */
  appliedAt?: Date;
  /** When Redis received everything; unset while pending. */
  publishedAt?: Date;
  attempts: number;
}

/** Published entries are kept a week: long enough to re-mirror cut-offs of deleted users (JWT TTL ≤ 1 day). */
export const OUTBOX_RETENTION_SECONDS = 7 * 24 * 3600;

const outboxSchema = new Schema<OutboxDocument>(
  {
    kind: { type: String, required: true, enum: ['jwt-cutoff', 'user-deleted', 'pat-revoked'] },
    userId: { type: String, required: true },
    cutoffMs: { type: Number, required: false },
    tokenHashes: { type: [String], default: [] },
    staleTokenHashes: { type: [String], default: undefined },
    occurredAt: { type: Date, required: true },
    appliedAt: { type: Date, required: false },
    publishedAt: { type: Date, required: false },
    attempts: { type: Number, default: 0 },
  },
  { collection: 'outbox', versionKey: false, strict: 'throw' },
);
// Pending entries are those without publishedAt; the same index removes published ones after the retention.
outboxSchema.index({ publishedAt: 1 }, { expireAfterSeconds: OUTBOX_RETENTION_SECONDS, name: 'published_retention' });
outboxSchema.index({ kind: 1, cutoffMs: 1 }, { name: 'kind_cutoff' });

/** Unsharded: entries live until relayed and then a short retention; the relay reads the pending ones of all users. */
export const OUTBOX_SHARDING: ShardingDeclaration = { collection: 'outbox', unsharded: 'short-lived entries, read by the relay across all users' };

export type OutboxModel = Model<OutboxDocument>;

export const outboxModel = (connection: Connection): OutboxModel =>
  (connection.models['OutboxEntry'] as OutboxModel | undefined) ?? connection.model<OutboxDocument>('OutboxEntry', outboxSchema);
