import { errors } from '@mt/errors';
import type { AdminClaimsRepository } from './admin-claims.repository';
import type { UserRecord, UsersRepository } from './users.repository';

/**
 * ADMIN_USERNAMES, bound to accounts. The first account to hold a listed name (by registering under it, or
 * by logging in with it when the name was listed after the account existed) claims it and becomes admin;
 * the role then stays on that account whatever it is called later. A claimed name is reserved to its
 * account for good, even after the account is deleted, and a listed name no one claimed yet can only be
 * registered, never taken by a rename: no account can inherit the role by taking a name.
 */
export class AdminNames {
  private readonly listed: ReadonlySet<string>;

  constructor(
    private readonly claims: AdminClaimsRepository,
    private readonly users: UsersRepository,
    adminUsernames: readonly string[],
  ) {
    this.listed = new Set(adminUsernames);
  }

  isListed(username: string): boolean {
    return this.listed.has(username.toLowerCase());
  }

  /** 409 when `username` is an admin name that the account `userId` (none: a registration) may not take. */
  async assertMayTake(username: string, userId?: string): Promise<void> {
    const name = username.toLowerCase();
    // Claims outlive the list: a name claimed once and unlisted since stays reserved.
    const owner = await this.claims.ownerOf(name);
    const refused = owner ? owner !== userId : this.listed.has(name) && userId !== undefined;
    if (refused) throw errors.conflict('username is reserved');
  }

  /** Makes `user` admin when it holds a listed name no other account claimed; returns it as it is now. */
  async promoteIfEntitled(user: UserRecord): Promise<UserRecord> {
    if (user.role === 'admin' || !(await this.claimsListedName(user))) return user;
    return (await this.users.changeRole(user.id, user.role, 'admin', null)) ?? user;
  }

  /** Whether the admin `user` still holds a listed name (claiming its current one if it is listed and free). */
  async entitled(user: UserRecord): Promise<boolean> {
    const names = await this.claims.namesOf(user.id);
    return names.some((name) => this.listed.has(name)) || this.claimsListedName(user);
  }

  private async claimsListedName(user: UserRecord): Promise<boolean> {
    return this.isListed(user.username) && (await this.claims.claim(user.username.toLowerCase(), user.id)) === user.id;
  }
}
