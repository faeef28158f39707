import type { Logger } from '@mt/logging';
import { redisKeys } from '@mt/contracts';
import { closeRedis, createRedis, settleWithin, type Redis } from '@mt/stores';
import { Queue, Worker, type Job } from 'bullmq';
import type { EventQueue } from '../domain/store-ports';

export interface ScrobbleQueueOptions {
  redisUrl: string;
  /** REDIS_KEY_PREFIX: BullMQ's keys go under `<prefix>{bull:scrobble}:scrobble-events:`, one slot on a cluster. */
  keyPrefix: string;
  logger: Logger;
  concurrency: number;
  /** A job whose worker stopped renewing its lock this long ago (a SIGKILLed instance) runs again. */
  lockMs: number;
}

interface EventJob {
  eventId: string;
}

const QUEUE = 'scrobble-events';
const ATTEMPTS = 8;
const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * The accepted events on BullMQ: every instance is a worker. An event is stored in MongoDB before it is
 * queued (job id = event id), and a job may run more than once (a crash mid-run, a stall): the processor
 * skips a finished event and the catalog records a play once per source event id.
 */
export class ScrobbleQueue implements EventQueue {
  private connection?: Redis;
  private queue?: Queue<EventJob>;
  private worker?: Worker<EventJob>;
  private readonly prefix: string;

  constructor(private readonly options: ScrobbleQueueOptions) {
    this.prefix = redisKeys(options.keyPrefix).scrobbleQueuePrefix();
  }

  private redis(): Redis {
    this.connection ??= createRedis({ url: this.options.redisUrl, logger: this.options.logger, name: 'scrobble-queue', blocking: true });
    return this.connection;
  }

  private producer(): Queue<EventJob> {
    if (!this.queue) {
      this.queue = new Queue<EventJob>(QUEUE, { connection: this.redis(), prefix: this.prefix });
      this.queue.on('error', (error) => this.options.logger.warn({ reason: error.message }, 'scrobble queue error'));
    }
    return this.queue;
  }

  async enqueue(eventId: string): Promise<void> {
    // Finished or failed jobs are removed, so the pending sweep can queue a lost event again under its id.
    const job = this.producer().add('event', { eventId }, { jobId: eventId, attempts: ATTEMPTS, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: true, removeOnFail: true });
    const added = job.then(() => true);
    // A late failure, after the timeout answered, is only the same outage again.
    added.catch(() => undefined);
    if (!(await settleWithin(added, ENQUEUE_TIMEOUT_MS))) throw new Error('queue unreachable');
  }

  start(run: (eventId: string) => Promise<void>): void {
    if (this.worker) return;
    const { logger, concurrency, lockMs } = this.options;
    this.worker = new Worker<EventJob>(QUEUE, (job: Job<EventJob>) => run(job.data.eventId), {
      connection: this.redis(),
      prefix: this.prefix,
      concurrency,
      lockDuration: lockMs,
      stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
      maxStalledCount: 1000,
    });
    this.worker.on('failed', (job, error) => {
      if (job) logger.warn({ event_id: job.data.eventId, attempt: job.attemptsMade, reason: error.message }, 'scrobble event not applied yet');
    });
    this.worker.on('error', (error) => logger.warn({ reason: error.message }, 'scrobble worker error'));
  }

  async close(): Promise<void> {
    await this.worker?.close(true);
    await this.queue?.close();
    if (this.connection) await closeRedis(this.connection);
    this.worker = undefined;
    this.queue = undefined;
    this.connection = undefined;
  }
}
