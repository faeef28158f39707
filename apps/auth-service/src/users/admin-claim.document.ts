import type { ShardingDeclaration } from '@mt/stores';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/**
 * An admin name (one of ADMIN_USERNAMES, lower-cased) and the account that claimed it. Never removed, not
 * even with the account: a claimed name stays reserved to its account, so no one else can take it over.
 */
export interface AdminClaimDocument {
  _id: string;
  userId: Types.ObjectId;
  createdAt: Date;
}

const adminClaimSchema = new Schema<AdminClaimDocument>(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
  },
  { collection: 'admin_names', timestamps: { createdAt: true, updatedAt: false }, versionKey: false, strict: 'throw' },
);
adminClaimSchema.index({ userId: 1 }, { name: 'admin_name_user' });

/** Unsharded: one document per configured admin name. */
export const ADMIN_CLAIM_SHARDING: ShardingDeclaration = { collection: 'admin_names', unsharded: 'one document per configured admin name' };

export type AdminClaimModel = Model<AdminClaimDocument>;

export const adminClaimModel = (connection: Connection): AdminClaimModel =>
  (connection.models['AdminClaim'] as AdminClaimModel | undefined) ?? connection.model<AdminClaimDocument>('AdminClaim', adminClaimSchema);
