import { PAT_TOMBSTONE_TTL_SECONDS, USER_DELETED, USER_DELETED_CUTOFF, patReintrospectMarker, type RedisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';
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

/** The only writer of what the gateway and the catalog services read from Redis about accounts. */
export class RedisMirrorRepository {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly jwtTtlMs: number,
  ) {}

  /**
   * Everything an outbox entry owes Redis, in one MULTI: all of it lands, or none of it (then it is
   * retried). `state`: the user's cut-off as MongoDB has it now (a password change) or the deletion.
   */
  async publish(entry: OutboxEntry, state: CutoffState | undefined): Promise<void> {
    const transaction = this.redis.multi();
    if (state) this.queueCutoff(transaction, state);
    this.queueTombstones(transaction, entry.tokenHashes);
    this.queueReintrospectMarkers(transaction, entry.staleTokenHashes, entry.id);
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

  /** Start-up / reconnection: puts back cut-offs and deletions Redis may have lost. */
  async setCutoffs(states: readonly CutoffState[]): Promise<void> {
    if (!states.length) return;
    const transaction = this.redis.multi();
    for (const state of states) this.queueCutoff(transaction, state);
    await this.exec(transaction);
  }

  private queueCutoff(transaction: Transaction, { userId, cutoff, sinceMs }: CutoffState): void {
    const keepUntilMs = sinceMs + this.jwtTtlMs + CUTOFF_TTL_MARGIN_MS;
    // Every JWT this could reject has expired by then: nothing to mirror.
    if (keepUntilMs <= Date.now()) return;
    transaction.eval(SET_CUTOFF_IF_LATER, 1, this.keys.jwtCutoff(userId), cutoff, keepUntilMs, USER_DELETED_CUTOFF);
  }

  /**
   * "Inactive" written over whatever the gateway cached, unconditionally and for longer than an active
   * entry may live: the gateway writes only absent entries, so an introspection that started before the
   * revocation cannot put "active" back (docs/api.md "Authentication": revocation takes effect on the very next request).
   */
  private queueTombstones(transaction: Transaction, tokenHashes: readonly string[]): void {
    for (const hash of tokenHashes) transaction.set(this.keys.patCache(hash), INACTIVE_PAT, 'EX', PAT_TOMBSTONE_TTL_SECONDS);
  }

  /**
   * A role taken away: "ask again" written over whatever the gateway cached, with the tombstone's rules
   * (unconditionally, as long): the next use is introspected and gets the reduced scopes, and an answer
   * given before the change cannot be cached over it. Not a tombstone: the token is still valid.
   */
  private queueReintrospectMarkers(transaction: Transaction, tokenHashes: readonly string[], entryId: string): void {
    const marker = patReintrospectMarker(entryId);
    for (const hash of tokenHashes) transaction.set(this.keys.patCache(hash), marker, 'EX', PAT_TOMBSTONE_TTL_SECONDS);
  }

  private async exec(transaction: Transaction): Promise<void> {
    const results = await transaction.exec();
    if (!results) throw new Error('redis transaction aborted');
    const failed = results.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }
}
