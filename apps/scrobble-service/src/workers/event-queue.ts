import type { Logger } from '@mt/logging';
import { redisKeys } from '@mt/contracts';
import { JobQueue } from '@mt/jobs';
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

const ATTEMPTS = 8;
const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * The accepted events on BullMQ: every instance is a worker. An event is stored in MongoDB before it is
 * queued (job id = event id), and a job may run more than once (a crash mid-run, a stall): the processor
 * skips a finished event and the catalog records a play once per source event id.
 */
export class ScrobbleQueue implements EventQueue {
  private readonly jobs: JobQueue<EventJob>;

  constructor(private readonly options: ScrobbleQueueOptions) {
    const { redisUrl, keyPrefix, logger, concurrency, lockMs } = options;
    this.jobs = new JobQueue<EventJob>({
      name: 'scrobble-events',
      prefix: redisKeys(keyPrefix).scrobbleQueuePrefix(),
      redisUrl,
      connectionName: 'scrobble-queue',
      logger,
      label: 'scrobble',
      jobName: 'event',
      // Finished or failed jobs are removed, so the pending sweep can queue a lost event again under its id.
      jobs: { attempts: ATTEMPTS, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: true, removeOnFail: true },
      enqueueTimeoutMs: ENQUEUE_TIMEOUT_MS,
      concurrency,
      lockMs,
    });
  }

  enqueue(eventId: string): Promise<void> {
    return this.jobs.add(eventId, { eventId });
  }

  start(run: (eventId: string) => Promise<void>): void {
    this.jobs.start(
      (job) => run(job.eventId),
      ({ data, attempt, reason }) => this.options.logger.warn({ event_id: data.eventId, attempt, reason }, 'scrobble event not applied yet'),
    );
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
