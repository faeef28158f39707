import { USER_DELETED_CUTOFF } from '@mt/contracts';
import type { Logger } from '@mt/logging';
import type { Redis } from '@mt/stores';
import type { UsersRepository } from '../users/users.repository';
import { OutageLog } from '../shared/warn-throttle';
import type { OutboxEntry, OutboxRepository } from './outbox.repository';
import type { CutoffState, RedisMirrorRepository } from './redis-mirror.repository';

/** Finishes the MongoDB side of an account deletion (idempotent), returning the updated entry. */
export type CompleteDeletion = (entry: OutboxEntry) => Promise<OutboxEntry>;

export interface OutboxRelayOptions {
  outbox: OutboxRepository;
  mirror: RedisMirrorRepository;
  users: UsersRepository;
  completeDeletion: CompleteDeletion;
  redis: Redis;
  logger: Logger;
  intervalMs: number;
  jwtTtlMs: number;
  /** Entries younger than this are left to the request publishing them (fewer duplicate events). */
  minAgeMs?: number;
  batchSize?: number;
}

/**
 * Delivers outbox entries to Redis: right away from the request (`deliverNow`), and from a loop
 * for whatever could not be delivered then (Redis down, process crashed). At least once: an entry
 * is marked published only after Redis has it; the cut-off write is monotonic and the event
 * consumers are idempotent, so a repeat is harmless.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private readonly redisOutage: OutageLog;
  private readonly onRedisReady = () => void this.recoverAfterReconnect();

  constructor(private readonly options: OutboxRelayOptions) {
    this.redisOutage = new OutageLog(options.logger, 'outbox entries not published yet (kept for retry)', 30_000);
  }

  /** Publishes one entry; throws when Redis (or MongoDB) cannot take it. */
  async deliver(entry: OutboxEntry): Promise<void> {
    let current = entry;
    if (current.kind === 'user-deleted' && !current.applied) current = await this.options.completeDeletion(current);
    await this.options.mirror.publish(current, await this.cutoffStateOf(current));
    await this.options.outbox.markPublished(current.id);
  }

  /**
   * A password change publishes the cut-off MongoDB holds now, not the one its entry proposed: an entry
   * whose change lost to a concurrent one (or never committed) must not publish a cut-off that no JWT
   * carries, which would reject every JWT of the user until it expired.
   */
  private async cutoffStateOf(entry: OutboxEntry): Promise<CutoffState | undefined> {
    if (entry.kind === 'user-deleted') {
      return { userId: entry.userId, cutoff: USER_DELETED_CUTOFF, sinceMs: entry.cutoffMs ?? entry.occurredAt.getTime() };
    }
    if (entry.kind !== 'jwt-cutoff') return undefined;
    const cutoffMs = (await this.options.users.findById(entry.userId))?.jwtCutoffMs ?? null;
    return cutoffMs === null ? undefined : { userId: entry.userId, cutoff: cutoffMs, sinceMs: cutoffMs };
  }

  /** From a request: publish now if possible; otherwise the loop will (the change itself is done). */
  async deliverNow(entry: OutboxEntry): Promise<boolean> {
    try {
      await this.deliver(entry);
      this.redisOutage.succeeded();
      return true;
    } catch (error) {
      this.redisOutage.failed(error, { outbox_kind: entry.kind });
      return false;
    }
  }

  /** One pass over pending entries, oldest first; stops at the first failure (retried next pass). */
  runOnce(): Promise<void> {
    this.running ??= this.publishPending().finally(() => (this.running = undefined));
    return this.running;
  }

  /**
   * Cut-offs and deletions within the JWT lifetime, written again: after a Redis restart without
   * persistence, the gateway would otherwise accept JWTs minted before a password change or deletion.
   */
  async remirrorCutoffs(): Promise<number> {
    const sinceMs = Date.now() - this.options.jwtTtlMs;
    const [fromUsers, fromDeletions] = await Promise.all([
      this.options.users.cutoffsSince(sinceMs),
      this.options.outbox.deletionCutoffsSince(sinceMs),
    ]);
    const cutoffs: CutoffState[] = [
      ...fromUsers.map(({ userId, cutoffMs }): CutoffState => ({ userId, cutoff: cutoffMs, sinceMs: cutoffMs })),
      ...fromDeletions.map(({ userId, cutoffMs }): CutoffState => ({ userId, cutoff: USER_DELETED_CUTOFF, sinceMs: cutoffMs })),
    ];
    for (let start = 0; start < cutoffs.length; start += 500) {
      await this.options.mirror.setCutoffs(cutoffs.slice(start, start + 500));
    }
    return cutoffs.length;
  }

  /** Starts the loop; resolves once the first re-mirror and flush are done (at once if Redis is down). */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.options.redis.on('ready', this.onRedisReady);
    this.schedule();
    if (this.options.redis.status === 'ready') await this.recoverAfterReconnect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.options.redis.off('ready', this.onRedisReady);
    await this.running?.catch(() => undefined);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.runOnce().finally(() => this.schedule());
    }, this.options.intervalMs);
    this.timer.unref();
  }

  private async publishPending(): Promise<void> {
    const { outbox, batchSize = 100, minAgeMs = 2000 } = this.options;
    try {
      const entries = await outbox.pending(batchSize, minAgeMs);
      for (const entry of entries) {
        try {
          await this.deliver(entry);
        } catch (error) {
          await outbox.recordAttempt(entry.id).catch(() => undefined);
          throw error;
        }
      }
      if (entries.length) this.options.logger.info({ published: entries.length }, 'outbox entries published');
      this.redisOutage.succeeded();
    } catch (error) {
      this.redisOutage.failed(error);
    }
  }

  /** Redis (re)connected: it may have restarted empty, so re-mirror, then flush what is pending. */
  private async recoverAfterReconnect(): Promise<void> {
    if (this.stopped) return;
    try {
      const count = await this.remirrorCutoffs();
      this.options.logger.debug({ cutoffs: count }, 'JWT cut-offs mirrored to redis');
    } catch (error) {
      this.redisOutage.failed(error);
    }
    await this.runOnce();
  }
}
