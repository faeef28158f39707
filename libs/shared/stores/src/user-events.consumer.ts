import { USER_DELETED } from '@mt/contracts';
import type { Logger } from 'pino';
import type { Metrics } from '@mt/metrics';
import { backoffDelay, sleep } from './backoff';
import type { Redis } from './redis';

export interface UserEventsConsumerOptions {
  /** A connection of its own (`createRedis({ blocking: true })`): XREADGROUP BLOCK holds it. */
  redis: Redis;
  stream: string;
  /** One group per consuming service (`catalog-<category>`, `scrobble`): each group sees every event once. */
  group: string;
  /** Unique per process (the instance id). */
  consumer: string;
  /** Applies a user.deleted event; must be idempotent. */
  eraseUser: (userId: string) => Promise<unknown>;
  logger: Logger;
  metrics: Metrics;
  /** Pending events idle this long (their consumer crashed or is stuck) are taken over. */
  claimIdleMs: number;
  blockMs: number;
  batchSize?: number;
}

type StreamEntry = [id: string, fields: string[] | null];
type ReadReply = Array<[stream: string, entries: StreamEntry[]]> | null;

/** User ids are opaque to this service; this only refuses what cannot be one. */
const USER_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** How long stop() lets the event in hand finish before cutting the connection. */
const STOP_GRACE_MS = 3000;

function fieldsOf(raw: string[] | null): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; raw && i + 1 < raw.length; i += 2) fields[String(raw[i])] = String(raw[i + 1]);
  return fields;
}

const reasonOf = (error: unknown) => ({ name: (error as Error).name, message: (error as Error).message });

/**
 * Consumes the account event stream with the service's consumer group (at least once):
 * - the group is created from the start of the stream (MKSTREAM, id 0), so events published before the
 *   first start, or while every instance was down, are still applied;
 * - an event is acknowledged only after its work is done; a failure leaves it pending and it is retried
 *   (own pending entries are read again first, after a backoff);
 * - entries left pending by a crashed consumer are taken over with XAUTOCLAIM once idle `claimIdleMs`;
 * - Redis or MongoDB outages only pause the loop (retry with backoff); it never stops on its own.
 */
export class UserEventsConsumer {
  private running: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private blockedInRead = false;
  private groupReady = false;
  private nextClaimAt = 0;
  private readonly batchSize: number;

  constructor(private readonly options: UserEventsConsumerOptions) {
    this.batchSize = options.batchSize ?? 50;
  }

  /** The consumer's own blocking connection (closed by the owner after stop()). */
  get redis(): Redis {
    return this.options.redis;
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Finishes the event in hand (and its acknowledgement), then stops. */
  async stop(): Promise<void> {
    this.abort.abort();
    if (!this.running) return;
    // A blocking read holds no work: interrupting it loses nothing (a delivered entry stays pending and
    // is taken over later). Otherwise the event in hand gets a grace period (Redis may be down, with
    // the command queued until it returns).
    if (!this.blockedInRead) {
      const grace = new AbortController();
      await Promise.race([this.running, sleep(STOP_GRACE_MS, grace.signal)]);
      grace.abort();
    }
    this.options.redis.disconnect();
    await this.running;
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async loop(): Promise<void> {
    const { logger } = this.options;
    for (let failures = 0; !this.stopped; ) {
      try {
        await this.ensureGroup();
        await this.drainOwnPending();
        await this.claimIdlePending();
        await this.readNew();
        if (!this.stopped) await this.updateLag();
        failures = 0;
      } catch (error) {
        if (this.stopped) break;
        failures++;
        if (/NOGROUP/.test((error as Error).message)) this.groupReady = false;
        const delay = backoffDelay(failures, 250, 10_000);
        logger.warn({ err: reasonOf(error), retry_in_ms: delay }, 'user events: consumer paused after an error');
        await sleep(delay, this.abort.signal);
      }
    }
  }

  private async ensureGroup(): Promise<void> {
    if (this.groupReady) return;
    const { redis, stream, group } = this.options;
    try {
      await redis.xgroup('CREATE', stream, group, '0', 'MKSTREAM');
      this.options.logger.debug({ stream, group }, 'user events: consumer group created');
    } catch (error) {
      if (!/BUSYGROUP/.test((error as Error).message)) throw error;
    }
    this.groupReady = true;
  }

  /** Entries delivered to this consumer and not acknowledged (an earlier attempt failed). */
  private async drainOwnPending(): Promise<void> {
    const { redis, stream, group, consumer } = this.options;
    for (;;) {
      const reply = (await redis.xreadgroup('GROUP', group, consumer, 'COUNT', this.batchSize, 'STREAMS', stream, '0')) as ReadReply;
      const entries = reply?.[0]?.[1] ?? [];
      if (!entries.length || this.stopped) return;
      await this.handleAll(entries);
    }
  }

  /** Takes over entries another consumer left pending for at least `claimIdleMs`, then handles them. */
  private async claimIdlePending(): Promise<void> {
    if (Date.now() < this.nextClaimAt) return;
    const { redis, stream, group, consumer, claimIdleMs } = this.options;
    let cursor = '0-0';
    do {
      const [next, entries] = (await redis.xautoclaim(stream, group, consumer, claimIdleMs, cursor, 'COUNT', this.batchSize)) as [
        string,
        StreamEntry[],
        ...unknown[],
      ];
      if (entries.length) this.options.logger.info({ count: entries.length }, 'user events: took over idle pending events');
      await this.handleAll(entries);
      cursor = next;
    } while (cursor !== '0-0' && !this.stopped);
    this.nextClaimAt = Date.now() + Math.max(1000, Math.min(this.options.claimIdleMs, 30_000));
  }

  private async readNew(): Promise<void> {
    const { redis, stream, group, consumer, blockMs } = this.options;
    if (this.stopped) return;
    this.blockedInRead = true;
    let reply: ReadReply;
    try {
      reply = (await redis.xreadgroup('GROUP', group, consumer, 'COUNT', this.batchSize, 'BLOCK', blockMs, 'STREAMS', stream, '>')) as ReadReply;
    } finally {
      this.blockedInRead = false;
    }
    await this.handleAll(reply?.[0]?.[1] ?? []);
  }

  /** In stream order; the first failure stops the batch (the rest stays pending for the retry). */
  private async handleAll(entries: StreamEntry[]): Promise<void> {
    for (const [id, raw] of entries) {
      await this.handle(id, fieldsOf(raw));
    }
  }

  private async handle(id: string, fields: Record<string, string>): Promise<void> {
    const { redis, stream, group, logger, metrics } = this.options;
    const type = fields['type'] ?? 'unknown';
    const userId = fields['user_id'];
    if (type !== USER_DELETED || !userId || !USER_ID.test(userId)) {
      // Not ours, trimmed away, or malformed: retrying cannot help, so acknowledge and count it.
      logger.warn({ event_id: id, type }, 'user events: ignoring an event this service does not handle');
      await redis.xack(stream, group, id);
      metrics.eventsProcessed.inc({ type: type.slice(0, 40), outcome: 'ignored' });
      return;
    }
    try {
      const result = await this.options.eraseUser(userId);
      await redis.xack(stream, group, id);
      metrics.eventsProcessed.inc({ type, outcome: 'applied' });
      logger.info({ event_id: id, user_id: userId, ...(result as object) }, 'user events: account deletion applied');
    } catch (error) {
      metrics.eventsProcessed.inc({ type, outcome: 'failed' });
      throw error;
    }
  }

  /** Pending + not yet delivered entries of the group (XINFO GROUPS `lag`, Redis ≥ 7). */
  private async updateLag(): Promise<void> {
    const { redis, stream, group, metrics } = this.options;
    const groups = (await redis.xinfo('GROUPS', stream)) as unknown[][];
    for (const raw of groups) {
      const info = fieldsOf(raw.map(String));
      if (info['name'] !== group) continue;
      const lag = Number(info['lag']);
      const pending = Number(info['pending']);
      metrics.eventConsumerLag.set({ stream, group }, (Number.isFinite(lag) ? lag : 0) + (Number.isFinite(pending) ? pending : 0));
    }
  }
}
