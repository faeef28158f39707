import type { EventStore, HookStore, InboxStore, MappingStore, PlayGuardStore } from '../../domain/store-ports';

/** `user.deleted`: the account's hooks (their URLs die with them), events, inbox and remembered choices. Idempotent. */
export class AccountDeletionService {
  constructor(private readonly deps: { hooks: HookStore; events: EventStore; guards: PlayGuardStore; inbox: InboxStore; mappings: MappingStore }) {}

  async eraseUser(userId: string): Promise<void> {
    const { hooks, events, guards, inbox, mappings } = this.deps;
    // Hooks first: no new event is accepted for the account while the rest goes.
    await hooks.deleteUser(userId);
    await Promise.all([events.deleteUser(userId), guards.deleteUser(userId), inbox.deleteUser(userId), mappings.deleteUser(userId)]);
  }
}
