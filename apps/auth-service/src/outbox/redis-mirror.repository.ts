import { PAT_TOMBSTONE_TTL_SECONDS, USER_DELETED, USER_DELETED_CUTOFF, patReintrospectMarker, type RedisKeys } from '@mt/contracts';
import { groupBySlot, type Redis } from '@mt/stores';
import type { OutboxEntry } from './outbox.repository';

/**
 * Sets a user's cut-off only if it moves the stored one forward, so replays and out-of-order deliveries
 * (two relays, a retry) can never move it back; the deletion marker is the last word. PXAT: the key
 * outlives every JWT it can reject.
 */
const SET_CUTOFF_IF_LATER = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[3] then return 0 end
if ARGV[1] ~= ARGV[3] and current and tonumber(current) and tonumber(current) >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return 1
`;

/** How long past the JWT lifetime a mirrored cut-off is kept (clock skew, slow requests). */
export const CUTOFF_TTL_MARGIN_MS = 5 * 60_000;

/** The gateway's PAT cache entry of a revoked token (what introspection would answer). */
const INACTIVE_PAT = JSON.stringify({ active: false });

/**
 * What Redis must say about a user's JWTs: the current cut-off (epoch ms), or that the user is gone.
 * `sinceMs`: when it took effect; every JWT it rejects was minted before and expires within the JWT lifetime.
 */
export interface CutoffState {
  userId: string;
  cutoff: number | typeof USER_DELETED_CUTOFF;
  sinceMs: number;
}

type Transaction = ReturnType<Redis['multi']>;

/** One write the mirror owes Redis, with the key it writes (a cluster runs one MULTI per hash slot). */
interface Write {
  key: string;
  queue: (transaction: Transaction) => void;
}

/** The only writer of what the gateway and the catalog services read from Redis about accounts. */
export class RedisMirrorRepository {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly jwtTtlMs: number,
  ) {}

  /**
   * Everything an outbox entry owes Redis: on one server in one MULTI, on a cluster in one MULTI per hash slot
   * (the user's cut-off, each token's cache entry, the event stream). A failure anywhere rejects and the entry
   * is retried whole: every write is safe to repeat (a cut-off only moves forward, an entry is overwritten, and
   * the event consumers delete idempotently). `state`: the user's cut-off as MongoDB has it now, or the deletion.
   */
  async publish(entry: OutboxEntry, state: CutoffState | undefined): Promise<void> {
    const writes = [
      ...(state ? this.cutoffWrites([state]) : []),
      ...this.patCacheWrites(entry.tokenHashes, INACTIVE_PAT),
      ...this.patCacheWrites(entry.staleTokenHashes, patReintrospectMarker(entry.id)),
    ];
    if (entry.kind === 'user-deleted') {
      const stream = this.keys.userEvents();
      writes.push({
        key: stream,
        queue: (transaction) =>
          transaction.xadd(stream, '*', 'type', USER_DELETED, 'user_id', entry.userId, 'occurred_at', entry.occurredAt.toISOString()),
      });
    }
    await this.exec(writes);
  }

  /** Start-up / reconnection: puts back cut-offs and deletions Redis may have lost. */
  async setCutoffs(states: readonly CutoffState[]): Promise<void> {
    await this.exec(this.cutoffWrites(states));
  }

  private cutoffWrites(states: readonly CutoffState[]): Write[] {
    return states.flatMap(({ userId, cutoff, sinceMs }) => {
      const keepUntilMs = sinceMs + this.jwtTtlMs + CUTOFF_TTL_MARGIN_MS;
      // Every JWT this could reject has expired by then: nothing to mirror.
      if (keepUntilMs <= Date.now()) return [];
      const key = this.keys.jwtCutoff(userId);
      return [{ key, queue: (transaction: Transaction) => transaction.eval(SET_CUTOFF_IF_LATER, 1, key, cutoff, keepUntilMs, USER_DELETED_CUTOFF) }];
    });
  }

  /**
   * `value` written over whatever the gateway cached, unconditionally and for longer than an active entry may
   * live: the gateway writes only absent entries, so an introspection that started before the change cannot put
   * "active" back. A revocation writes the "inactive" tombstone (docs/api.md "Authentication": it takes effect on
   * the very next request); a role taken away writes the "ask again" marker (the token stays valid, with the
   * scopes introspection now gives it).
   */
  private patCacheWrites(tokenHashes: readonly string[], value: string): Write[] {
    return tokenHashes.map((hash) => {
      const key = this.keys.patCache(hash);
      return { key, queue: (transaction: Transaction) => transaction.set(key, value, 'EX', PAT_TOMBSTONE_TTL_SECONDS) };
    });
  }

  private async exec(writes: readonly Write[]): Promise<void> {
    const groups = groupBySlot(writes, (write) => write.key, this.redis.isCluster);
    await Promise.all(
      groups.map(async (group) => {
        const transaction = this.redis.multi();
        for (const write of group) write.queue(transaction);
        const results = await transaction.exec();
        if (!results) throw new Error('redis transaction aborted');
        const failed = results.find(([error]) => error);
        if (failed?.[0]) throw failed[0];
      }),
    );
  }
}
