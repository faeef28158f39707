import type { UserRecord } from './users.repository';
import type { UserResponse } from './users.schemas';

/** The public user object: never the password hash or the cut-off. */
export const toUserResponse = (user: UserRecord): UserResponse => ({
  id: user.id,
  username: user.username,
  email: user.email,
  role: user.role,
  created_at: user.createdAt.toISOString(),
  updated_at: user.updatedAt.toISOString(),
});
