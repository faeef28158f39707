import { errors } from '@mt/errors';
import type { IssuedJwt, JwtSigner } from '../jwt/jwt-signer';
import type { OutboxRelay } from '../outbox/outbox-relay';
import type { OutboxRepository } from '../outbox/outbox.repository';
import type { AccountEraser } from './account-eraser';
import type { PasswordHasher } from './password-hasher';
import { requireExistingUser } from './require-user';
import type { UsersRepository } from './users.repository';

export interface AccountServiceDependencies {
  users: UsersRepository;
  hasher: PasswordHasher;
  signer: JwtSigner;
  outbox: OutboxRepository;
  relay: OutboxRelay;
  eraser: AccountEraser;
}

/**
 * Password change and account deletion: the two changes that must reach Redis (JWT cut-off or the
 * user's deletion, PAT cache tombstones, `user.deleted`). Each writes its outbox entry first, then the
 * change, then publishes before answering; if Redis is down the relay publishes later (the gateway asks
 * the auth service meanwhile). A change that fails after its entry was written at worst publishes a
 * cut-off no JWT carries yet: it rejects the JWTs minted under the old one, which the client still holds.
 */
export class AccountService {
  private readonly users: UsersRepository;
  private readonly hasher: PasswordHasher;
  private readonly signer: JwtSigner;
  private readonly outbox: OutboxRepository;
  private readonly relay: OutboxRelay;
  private readonly eraser: AccountEraser;

  constructor(dependencies: AccountServiceDependencies) {
    ({ users: this.users, hasher: this.hasher, signer: this.signer, outbox: this.outbox, relay: this.relay, eraser: this.eraser } = dependencies);
  }

  async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<IssuedJwt> {
    const user = await requireExistingUser(this.users, userId);
    if (!(await this.hasher.verify(user.passwordHash, currentPassword))) {
      throw errors.forbidden('current password is incorrect');
    }
    const newHash = await this.hasher.hash(newPassword);
    // Strictly later than the cut-off read with the hash (two changes in one millisecond still differ):
    // every JWT minted from the old hash carries a smaller value and is rejected from the commit on.
    const cutoffMs = Math.max(Date.now(), (user.jwtCutoffMs ?? 0) + 1);
    const entry = await this.outbox.add({ kind: 'jwt-cutoff', userId, cutoffMs });
    if (!(await this.users.changePassword(userId, user.passwordHash, newHash, cutoffMs))) {
      // The hash changed meanwhile (a concurrent change won) or the account is gone.
      await requireExistingUser(this.users, userId);
      throw errors.forbidden('current password is incorrect');
    }
    await this.relay.deliverNow(entry);
    // Minted under the new cut-off: the one JWT that outlives the change.
    return this.signer.sign(userId, cutoffMs);
  }

  async deleteAccount(userId: string): Promise<void> {
    await requireExistingUser(this.users, userId);
    const cutoffMs = Date.now() + 1;
    const entry = await this.outbox.add({ kind: 'user-deleted', userId, cutoffMs, occurredAt: new Date(cutoffMs) });
    const erased = await this.eraser.erase(entry);
    await this.relay.deliverNow(erased);
  }
}
