import type { ShardingDeclaration } from '@mt/stores';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface UserDocument {
  _id: Types.ObjectId;
  /** As the user typed it; shown back unchanged. */
  username: string;
  /** The unique key: usernames are unique case-insensitively. */
  usernameLower: string;
  /** Stored lower-case, so the unique index is case-insensitive. */
  email: string;
  passwordHash: string;
  /**
   * The JWT cut-off (epoch ms of the last password change; absent until the first): every JWT carries the
   * value it was minted under (`cutoff_ms`), and one minted under an earlier value is rejected.
   */
  jwtCutoffMs?: number;
  /** docs/api.md "Authentication"; absent = `user`. Changed only together with the cut-off (a role change revokes like a password change). */
  role?: 'user' | 'moderator' | 'admin';
  createdAt: Date;
  updatedAt: Date;
}

const userSchema = new Schema<UserDocument>(
  {
    username: { type: String, required: true },
    usernameLower: { type: String, required: true },
    email: { type: String, required: true },
    passwordHash: { type: String, required: true },
    jwtCutoffMs: { type: Number, required: false },
    role: { type: String, required: false, enum: ['user', 'moderator', 'admin'] },
  },
  { collection: 'users', timestamps: true, versionKey: false, strict: 'throw' },
);

/** Unsharded: usernames and emails are each unique across all accounts; no shard key starts both. */
export const USER_SHARDING: ShardingDeclaration = { collection: 'users', unsharded: 'unique usernames and unique emails: no shard key starts both; one small document per account' };
// The unique indexes are the only uniqueness check: no check-then-insert race between two registrations.
userSchema.index({ usernameLower: 1 }, { unique: true, name: 'username_unique' });
userSchema.index({ email: 1 }, { unique: true, name: 'email_unique' });
// Start-up checks every admin against ADMIN_USERNAMES; sparse: most users have no stored role.
userSchema.index({ role: 1 }, { sparse: true, name: 'role' });
// Start-up re-mirrors recent cut-offs to Redis; sparse: most users never changed their password.
userSchema.index({ jwtCutoffMs: 1 }, { sparse: true, name: 'jwt_cutoff' });

export type UserModel = Model<UserDocument>;

export const userModel = (connection: Connection): UserModel =>
  (connection.models['User'] as UserModel | undefined) ?? connection.model<UserDocument>('User', userSchema);
