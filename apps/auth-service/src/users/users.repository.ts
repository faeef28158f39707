import type { Role } from '@mt/tokens';
import type { Connection, QueryFilter } from 'mongoose';
import { duplicateKeyFields, isDuplicateKeyError } from '@mt/stores';
import { toObjectId } from '../shared/object-id';
import { userModel, type UserDocument, type UserModel } from './user.document';

export interface UserRecord {
  id: string;
  username: string;
  email: string;
  passwordHash: string;
  jwtCutoffMs: number | null;
  role: Role;
  createdAt: Date;
  updatedAt: Date;
}

export type UniqueUserField = 'username' | 'email';

/** A unique index refused the write; `field` names which one. */
export class UserUniqueViolation extends Error {
  override name = 'UserUniqueViolation';
  constructor(readonly field: UniqueUserField) {
    super(`${field} is not unique`);
  }
}

const toRecord = (doc: UserDocument): UserRecord => ({
  id: doc._id.toHexString(),
  username: doc.username,
  email: doc.email,
  passwordHash: doc.passwordHash,
  jwtCutoffMs: doc.jwtCutoffMs ?? null,
  role: doc.role ?? 'user',
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

function asUniqueViolation(error: unknown): unknown {
  if (!isDuplicateKeyError(error)) return error;
  const fields = duplicateKeyFields(error).join(' ');
  return new UserUniqueViolation(/email/.test(fields) ? 'email' : 'username');
}

/** Logins are a username, or an email when they contain `@` (usernames cannot). */
const loginFilter = (login: string) =>
  login.includes('@') ? { email: login.toLowerCase() } : { usernameLower: login.toLowerCase() };

export class UsersRepository {
  readonly model: UserModel;

  constructor(connection: Connection) {
    this.model = userModel(connection);
  }

  ensureIndexes(): Promise<void> {
    return this.model.createIndexes();
  }

  async create(input: { username: string; email: string; passwordHash: string; role?: Role }): Promise<UserRecord> {
    try {
      const created = await this.model.create({
        ...(input.role && input.role !== 'user' ? { role: input.role } : {}),
        username: input.username,
        usernameLower: input.username.toLowerCase(),
        email: input.email.toLowerCase(),
        passwordHash: input.passwordHash,
      });
      return toRecord(created.toObject());
    } catch (error) {
      throw asUniqueViolation(error);
    }
  }

  async findById(id: string): Promise<UserRecord | undefined> {
    const _id = toObjectId(id);
    if (!_id) return undefined;
    const doc = await this.model.findById(_id).lean<UserDocument>();
    return doc ? toRecord(doc) : undefined;
  }

  async findByLogin(login: string): Promise<UserRecord | undefined> {
    const doc = await this.model.findOne(loginFilter(login)).lean<UserDocument>();
    return doc ? toRecord(doc) : undefined;
  }

  async updateProfile(id: string, changes: { username?: string; email?: string }): Promise<UserRecord | undefined> {
    const _id = toObjectId(id);
    if (!_id) return undefined;
    const set: Partial<UserDocument> = {};
    if (changes.username !== undefined) Object.assign(set, { username: changes.username, usernameLower: changes.username.toLowerCase() });
    if (changes.email !== undefined) set.email = changes.email.toLowerCase();
    try {
      const doc = await this.model.findOneAndUpdate({ _id }, { $set: set }, { returnDocument: 'after' }).lean<UserDocument>();
      return doc ? toRecord(doc) : undefined;
    } catch (error) {
      throw asUniqueViolation(error);
    }
  }

  /**
   * Replaces the hash only if it is still `expectedHash` (a concurrent change wins once) and moves the
   * cut-off forward in the same update ($max: it never goes back), so no login can read the new hash with
   * the old cut-off or the old hash with the new one. Returns whether the user was updated.
   */
  async changePassword(id: string, expectedHash: string, newHash: string, cutoffMs: number): Promise<boolean> {
    const _id = toObjectId(id);
    if (!_id) return false;
    const result = await this.model.updateOne(
      { _id, passwordHash: expectedHash },
      { $set: { passwordHash: newHash }, $max: { jwtCutoffMs: cutoffMs } },
    );
    return result.matchedCount === 1;
  }

  /**
   * Sets the role if it is still `expectedRole`, moving the cut-off forward in the same update (like a
   * password change): a JWT minted under the old role carries a smaller cut-off and is rejected from the
   * change on. Returns the user after the change, or undefined when it is gone or its role changed meanwhile.
   */
  async changeRole(id: string, expectedRole: Role, role: Role, cutoffMs: number | null): Promise<UserRecord | undefined> {
    const _id = toObjectId(id);
    if (!_id) return undefined;
    // A user without a stored role is a `user`.
    const filter: QueryFilter<UserDocument> = expectedRole === 'user' ? { _id, role: { $in: [null, 'user'] } } : { _id, role: expectedRole };
    const update = cutoffMs === null ? { $set: { role } } : { $set: { role }, $max: { jwtCutoffMs: cutoffMs } };
    const doc = await this.model.findOneAndUpdate(filter, update, { returnDocument: 'after' }).lean<UserDocument>();
    return doc ? toRecord(doc) : undefined;
  }

  /** A stronger hash after the cost parameters were raised (only if the hash did not change meanwhile). */
  async replaceHash(id: string, expectedHash: string, newHash: string): Promise<void> {
    const _id = toObjectId(id);
    if (_id) await this.model.updateOne({ _id, passwordHash: expectedHash }, { $set: { passwordHash: newHash } }, { timestamps: false });
  }

  async delete(id: string): Promise<boolean> {
    const _id = toObjectId(id);
    if (!_id) return false;
    return (await this.model.deleteOne({ _id })).deletedCount === 1;
  }

  /** Cut-offs set after `sinceMs`: the ones under which some JWT may still be alive. */
  async cutoffsSince(sinceMs: number): Promise<Array<{ userId: string; cutoffMs: number }>> {
    const docs = await this.model
      .find({ jwtCutoffMs: { $gt: sinceMs } }, { _id: 1, jwtCutoffMs: 1 })
      .lean<Array<Pick<UserDocument, '_id' | 'jwtCutoffMs'>>>();
    return docs.map((doc) => ({ userId: doc._id.toHexString(), cutoffMs: doc.jwtCutoffMs ?? 0 }));
  }
}
