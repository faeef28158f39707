import type { OutboxEntry, OutboxRepository } from '../outbox/outbox.repository';
import type { TokensRepository } from '../tokens/tokens.repository';
import type { UsersRepository } from './users.repository';

/**
 * The MongoDB side of an account deletion, driven by its outbox entry so that it can be finished
 * by the relay if the request died half-way. Idempotent: each step can run again.
 * The token hashes are recorded on the entry before the tokens go, so their gateway cache
 * entries can still be evicted later.
 */
export class AccountEraser {
  constructor(
    private readonly users: UsersRepository,
    private readonly tokens: TokensRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  async erase(entry: OutboxEntry): Promise<OutboxEntry> {
    const hashes = await this.tokens.hashesOfUser(entry.userId);
    const withHashes = hashes.length ? ((await this.outbox.addTokenHashes(entry.id, hashes)) ?? entry) : entry;
    await this.tokens.deleteAllOfUser(entry.userId);
    await this.users.delete(entry.userId);
    await this.outbox.markApplied(entry.id);
    return { ...withHashes, applied: true };
  }
}
