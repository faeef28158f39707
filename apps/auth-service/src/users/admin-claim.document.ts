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

export type AdminClaimModel = Model<AdminClaimDocument>;

export const adminClaimModel = (connection: Connection): AdminClaimModel =>
  (connection.models['AdminClaim'] as AdminClaimModel | undefined) ?? connection.model<AdminClaimDocument>('AdminClaim', adminClaimSchema);
