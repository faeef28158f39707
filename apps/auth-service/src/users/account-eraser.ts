import type { OutboxEntry, OutboxRepository } from '../outbox/outbox.repository';
import type { TokensRepository } from '../tokens/tokens.repository';
import type { UsersRepository } from './users.repository';

/**
 * The MongoDB side of an account deletion, driven by its outbox entry so that it can be finished
 * by the relay if the request died half-way. Idempotent: each step can run again.
 * The user goes first: introspection answers "active" only for a token it read while the user still
 * existed, so every such token is among the hashes read afterwards, and gets a cache tombstone. The
 * hashes are recorded on the entry before the tokens go, so the tombstones can still be written later.
 */
export class AccountEraser {
  constructor(
    private readonly users: UsersRepository,
    private readonly tokens: TokensRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  async erase(entry: OutboxEntry): Promise<OutboxEntry> {
    await this.users.delete(entry.userId);
    const hashes = await this.tokens.hashesOfUser(entry.userId);
    const withHashes = hashes.length ? ((await this.outbox.addTokenHashes(entry.id, hashes)) ?? entry) : entry;
    await this.tokens.deleteAllOfUser(entry.userId);
    await this.outbox.markApplied(entry.id);
    return { ...withHashes, applied: true };
  }
}
