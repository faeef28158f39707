import { errors } from '@mt/errors';
import type { Role } from '@mt/tokens';
import type { OutboxRelay } from '../outbox/outbox-relay';
import type { OutboxRepository } from '../outbox/outbox.repository';
import type { TokensRepository } from '../tokens/tokens.repository';
import { requireExistingUser } from './require-user';
import type { UserRecord, UsersRepository } from './users.repository';

const ATTEMPTS = 5;

/**
 * Roles (docs/api.md "Authentication"). Taking a role away revokes like a password change: the cut-off moves in the same
 * update as the role (JWTs minted under the old role are rejected from the change on), and every PAT of the
 * user gets a re-introspect marker in the gateway's cache (not a revocation tombstone), so its next use is
 * introspected again and answered without `catalog:moderate` (403 on moderation, the rest works). Tokens are collected before the change (in the outbox entry, crash-safe) and once more
 * after it (one created meanwhile). Granting a role moves nothing: it takes effect at the next login.
 */
export class RolesService {
  constructor(
    private readonly users: UsersRepository,
    private readonly tokens: TokensRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async setRole(callerId: string, targetId: string, role: Exclude<Role, 'admin'>): Promise<UserRecord> {
    const caller = await requireExistingUser(this.users, callerId);
    if (caller.role !== 'admin') throw errors.forbidden('only an admin may change roles');
    if (targetId === callerId) throw errors.forbidden("an admin's own role is not changed this way");
    for (let attempt = 1; ; attempt++) {
      const target = await this.users.findById(targetId);
      if (!target) throw errors.notFound('user not found');
      if (target.role === 'admin') throw errors.forbidden('admins are named by the deployment (ADMIN_USERNAMES), not by this endpoint');
      if (target.role === role) return target;
      const updated = role === 'user' ? await this.demote(target, role) : await this.users.changeRole(targetId, target.role, role, null);
      if (updated) return updated;
      if (attempt >= ATTEMPTS) throw errors.conflict('the role kept changing meanwhile; try again');
    }
  }

  private async demote(target: UserRecord, role: Role): Promise<UserRecord | undefined> {
    const cutoffMs = Math.max(Date.now(), (target.jwtCutoffMs ?? 0) + 1);
    // The PATs stay valid, only their scopes shrink: re-introspect markers, not revocation tombstones.
    let entry = await this.outbox.add({ kind: 'jwt-cutoff', userId: target.id, cutoffMs, staleTokenHashes: await this.tokens.hashesOfUser(target.id) });
    const updated = await this.users.changeRole(target.id, target.role, role, cutoffMs);
    if (!updated) return undefined;
    const after = await this.tokens.hashesOfUser(target.id);
    const fresh = after.filter((hash) => !entry.staleTokenHashes.includes(hash));
    if (fresh.length) entry = (await this.outbox.addTokenHashes(entry.id, fresh, 'staleTokenHashes')) ?? entry;
    await this.relay.deliverNow(entry);
    return updated;
  }
}
