import { USER_DELETED, type RedisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';
import type { OutboxEntry } from './outbox.repository';

/**
 * Sets a cut-off only if it moves the stored one forward, so replays and out-of-order deliveries
 * (two relays, a retry) can never move it back. PXAT: the key outlives every JWT it can reject.
 */
const SET_CUTOFF_IF_LATER = `
local current = tonumber(redis.call('GET', KEYS[1]))
if current and current >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return 1
`;

/** How long past the JWT lifetime a mirrored cut-off is kept (clock skew, slow requests). */
export const CUTOFF_TTL_MARGIN_MS = 5 * 60_000;

type Transaction = ReturnType<Redis['multi']>;

/** The only writer of what the gateway and the catalog services read from Redis about accounts. */
export class RedisMirrorRepository {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly jwtTtlMs: number,
  ) {}

  /** Everything the entry owes Redis, in one MULTI: all of it lands, or none of it (then it is retried). */
  async publish(entry: OutboxEntry): Promise<void> {
    const transaction = this.redis.multi();
    if (entry.cutoffMs !== null) this.queueCutoff(transaction, entry.userId, entry.cutoffMs);
    if (entry.tokenHashes.length) transaction.del(...entry.tokenHashes.map((hash) => this.keys.patCache(hash)));
    if (entry.kind === 'user-deleted') {
      transaction.xadd(
        this.keys.userEvents(),
        '*',
        'type',
        USER_DELETED,
        'user_id',
        entry.userId,
        'occurred_at',
        entry.occurredAt.toISOString(),
      );
    }
    await this.exec(transaction);
  }

  /** Start-up / reconnection: puts back cut-offs Redis may have lost. */
  async setCutoffs(cutoffs: ReadonlyArray<{ userId: string; cutoffMs: number }>): Promise<void> {
    if (!cutoffs.length) return;
    const transaction = this.redis.multi();
    for (const { userId, cutoffMs } of cutoffs) this.queueCutoff(transaction, userId, cutoffMs);
    await this.exec(transaction);
  }

  async evictPatCaches(tokenHashes: readonly string[]): Promise<void> {
    if (tokenHashes.length) await this.redis.del(...tokenHashes.map((hash) => this.keys.patCache(hash)));
  }

  private queueCutoff(transaction: Transaction, userId: string, cutoffMs: number): void {
    const keepUntilMs = cutoffMs + this.jwtTtlMs + CUTOFF_TTL_MARGIN_MS;
    // Every JWT this cut-off could reject has expired by then: nothing to mirror.
    if (keepUntilMs <= Date.now()) return;
    transaction.eval(SET_CUTOFF_IF_LATER, 1, this.keys.jwtCutoff(userId), cutoffMs, keepUntilMs);
  }

  private async exec(transaction: Transaction): Promise<void> {
    const results = await transaction.exec();
    if (!results) throw new Error('redis transaction aborted');
    const failed = results.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }
}
