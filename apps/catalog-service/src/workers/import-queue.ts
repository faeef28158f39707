import { redisKeys } from '@mt/contracts';
import { JobQueue } from '@mt/jobs';
import type { Logger } from '@mt/logging';
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
 * The import jobs of one category on BullMQ (Redis): every instance of the category is a worker. A job
 * stopped by a crash or a SIGTERM is resumed by the next worker from its MongoDB checkpoint, so it repeats
 * no work.
 */
export class ImportQueue implements ImportQueuePort {
  private readonly jobs: JobQueue<ImportJobData>;

  constructor(private readonly options: ImportQueueOptions) {
    const { redisUrl, keyPrefix, category, logger, concurrency, lockMs } = options;
    this.jobs = new JobQueue<ImportJobData>({
      name: `imports-${category}`,
      prefix: redisKeys(keyPrefix).importQueuePrefix(category),
      redisUrl,
      connectionName: `catalog-${category}-imports`,
      logger,
      label: 'import',
      jobName: 'import',
      jobs: { attempts: ATTEMPTS, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: 1000 },
      enqueueTimeoutMs: ENQUEUE_TIMEOUT_MS,
      concurrency,
      lockMs,
    });
  }

  /** Idempotent: a job id already in the queue is not added twice. */
  enqueue(jobId: string): Promise<void> {
    return this.jobs.add(jobId, { jobId });
  }

  /** Starts this instance's worker: `run` executes a job (resuming it), `fail` records a job the queue gave up on. */
  start(run: (jobId: string) => Promise<void>, fail: (jobId: string, reason: string) => Promise<void>): void {
    const { logger } = this.options;
    this.jobs.start(
      (job) => run(job.jobId),
      ({ data, attempt, lastAttempt, reason }) => {
        logger.warn({ import_id: data.jobId, attempt, reason }, 'import run failed');
        if (!lastAttempt) return;
        fail(data.jobId, reason).catch((failure) => logger.error({ import_id: data.jobId, reason: (failure as Error).message }, 'failed import not recorded'));
      },
    );
  }

  /** Stops taking jobs (SIGTERM) without waiting for the running ones: they are resumed elsewhere. */
  close(): Promise<void> {
    return this.jobs.close();
  }
}
