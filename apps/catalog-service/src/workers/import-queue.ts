import { redisKeys } from '@mt/contracts';
import type { Logger } from '@mt/logging';
import { closeRedis, createRedis, type Redis } from '@mt/stores';
import { Queue, Worker, type Job } from 'bullmq';
import type { ImportQueuePort } from '../features/list-import/list-import.service';

export interface ImportQueueOptions {
  redisUrl: string;
  /** The deployment's Redis key prefix (`mt:`): BullMQ's keys go under `<prefix>{bull:<category>}:imports-<category>:`. */
  keyPrefix: string;
  category: string;
  logger: Logger;
  /** Jobs run at once by this instance. */
  concurrency: number;
  /** A job whose worker stopped renewing its lock this long ago (a SIGKILLed instance) is run again. */
  lockMs: number;
}

interface ImportJobData {
  jobId: string;
}

/** Attempts of one job when its run throws (a store outage); each resumes from the checkpoint. */
const ATTEMPTS = 5;
const ENQUEUE_TIMEOUT_MS = 5000;

/**
 * The import jobs of one category on BullMQ (Redis): every instance of the category is a worker. BullMQ
 * holds a lock per running job that its worker renews; a SIGKILLed worker stops renewing, and the stalled-job
 * check of any live worker puts the job back in the queue, where the next worker resumes it from its
 * MongoDB checkpoint. Stalls are not counted against a job (`maxStalledCount` is high): a resumed job
 * repeats no work, so there is no reason to give up on it after a crash.
 */
export class ImportQueue implements ImportQueuePort {
  private readonly queueName: string;
  private readonly prefix: string;
  private connection?: Redis;
  private queue?: Queue<ImportJobData>;
  private worker?: Worker<ImportJobData>;

  constructor(private readonly options: ImportQueueOptions) {
    this.queueName = `imports-${options.category}`;
    // Hash-tagged: BullMQ's scripts touch many keys of one queue at once, which a Redis Cluster allows in one slot only.
    this.prefix = redisKeys(options.keyPrefix).importQueuePrefix(options.category);
  }

  private redis(): Redis {
    this.connection ??= createRedis({ url: this.options.redisUrl, logger: this.options.logger, name: `catalog-${this.options.category}-imports`, blocking: true });
    return this.connection;
  }

  private producer(): Queue<ImportJobData> {
    if (!this.queue) {
      this.queue = new Queue<ImportJobData>(this.queueName, { connection: this.redis(), prefix: this.prefix });
      // An EventEmitter's unhandled 'error' would end the process; a Redis outage only delays imports.
      this.queue.on('error', (error) => this.options.logger.warn({ reason: error.message }, 'import queue error'));
    }
    return this.queue;
  }

  /** Idempotent: a job id already in the queue is not added twice. */
  async enqueue(jobId: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('queue unreachable')), ENQUEUE_TIMEOUT_MS);
    });
    try {
      await Promise.race([
        this.producer().add('import', { jobId }, { jobId, attempts: ATTEMPTS, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: 1000 }),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Starts this instance's worker: `run` executes a job (resuming it), `fail` records a job the queue gave up on. */
  start(run: (jobId: string) => Promise<void>, fail: (jobId: string, reason: string) => Promise<void>): void {
    if (this.worker) return;
    const { logger, concurrency, lockMs } = this.options;
    this.worker = new Worker<ImportJobData>(this.queueName, (job: Job<ImportJobData>) => run(job.data.jobId), {
      connection: this.redis(),
      prefix: this.prefix,
      concurrency,
      lockDuration: lockMs,
      stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
      maxStalledCount: 1000,
    });
    this.worker.on('failed', (job, error) => {
      if (!job) return;
      logger.warn({ import_id: job.data.jobId, attempt: job.attemptsMade, reason: error.message }, 'import run failed');
      if (job.attemptsMade >= (job.opts.attempts ?? 1)) {
        fail(job.data.jobId, error.message).catch((failure) => logger.error({ import_id: job.data.jobId, reason: (failure as Error).message }, 'failed import not recorded'));
      }
    });
    this.worker.on('error', (error) => logger.warn({ reason: error.message }, 'import worker error'));
  }

  /** Stops taking jobs (SIGTERM) without waiting for the running ones: they are resumed elsewhere. */
  async close(): Promise<void> {
    // Forced: a job cut short keeps its lock until it lapses, then another instance resumes it from its checkpoint.
    await this.worker?.close(true);
    await this.queue?.close();
    if (this.connection) await closeRedis(this.connection);
    this.worker = undefined;
    this.queue = undefined;
    this.connection = undefined;
  }
}
