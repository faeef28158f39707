import { errors } from '@mt/errors';
import type { UserRecord, UsersRepository } from './users.repository';

/** The identity was signed for a user who no longer exists (deleted meanwhile): 401, like a revoked credential. */
export async function requireExistingUser(users: UsersRepository, userId: string): Promise<UserRecord> {
  const user = await users.findById(userId);
  if (!user) throw errors.unauthorized('the account no longer exists');
  return user;
}
