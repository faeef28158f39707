import { errors } from '@mt/errors';
import type { AdminNames } from './admin-names';
import type { PasswordHasher } from './password-hasher';
import { requireExistingUser } from './require-user';
import { UserUniqueViolation, type UniqueUserField, type UserRecord, type UsersRepository } from './users.repository';

const CONFLICT_MESSAGES: Record<UniqueUserField, string> = {
  username: 'username already taken',
  email: 'email already registered',
};

function conflictOf(error: unknown): unknown {
  return error instanceof UserUniqueViolation ? errors.conflict(CONFLICT_MESSAGES[error.field]) : error;
}

/** Registration and the profile (GET/PUT /me). */
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly adminNames: AdminNames,
  ) {}

  /** The first registration under a listed admin name, never claimed before, makes an admin (bootstrap). */
  async register(input: { username: string; email: string; password: string }): Promise<UserRecord> {
    await this.adminNames.assertMayTake(input.username);
    const passwordHash = await this.hasher.hash(input.password);
    let created: UserRecord;
    try {
      created = await this.users.create({ username: input.username, email: input.email, passwordHash });
    } catch (error) {
      throw conflictOf(error);
    }
    return this.adminNames.promoteIfEntitled(created);
  }

  profile(userId: string): Promise<UserRecord> {
    return requireExistingUser(this.users, userId);
  }

  async updateProfile(userId: string, changes: { username?: string; email?: string }): Promise<UserRecord> {
    if (changes.username !== undefined) await this.adminNames.assertMayTake(changes.username, userId);
    let updated: UserRecord | undefined;
    try {
      updated = await this.users.updateProfile(userId, changes);
    } catch (error) {
      throw conflictOf(error);
    }
    if (!updated) throw errors.unauthorized('the account no longer exists');
    return updated;
  }
}
