import type { Logger } from '@mt/logging';
import { closeRedis, createRedis, settleWithin, type Redis } from '@mt/stores';
import { Queue, Worker, type Job, type JobsOptions } from 'bullmq';

export interface JobQueueOptions {
  /** BullMQ's queue name. */
  name: string;
  /**
   * BullMQ's key prefix, hash-tagged (`redisKeys(...)`): its scripts touch many keys of one queue at once,
   * which a Redis Cluster allows in one slot only.
   */
  prefix: string;
  redisUrl: string;
  /** The connection's name in CLIENT LIST. */
  connectionName: string;
  logger: Logger;
  /** What the queue's log lines call it (`<label> queue error`). */
  label: string;
  /** The name every job is added under. */
  jobName: string;
  /** Attempts, backoff and removal of each job. */
  jobs: Pick<JobsOptions, 'attempts' | 'backoff' | 'removeOnComplete' | 'removeOnFail'>;
  /** How long an enqueue waits for Redis before it fails with "queue unreachable". */
  enqueueTimeoutMs: number;
  /** Jobs run at once by this instance. */
  concurrency: number;
  /** A job whose worker stopped renewing its lock this long ago (a SIGKILLed instance) runs again. */
  lockMs: number;
}

/** A producer of jobs whose data is `Data`, named as BullMQ's generics cannot infer for a type parameter. */
type Producer<Data> = Queue<Data, void, string, Data, void, string>;

/** A run that threw; `lastAttempt` when the queue gives the job up. */
export interface FailedRun<Data> {
  data: Data;
  attempt: number;
  lastAttempt: boolean;
  reason: string;
}

/**
 * A BullMQ queue that every instance of a service both feeds and works. BullMQ holds a lock per running job
 * that its worker renews; a SIGKILLed worker stops renewing, and the stalled-job check of any live worker puts
 * the job back in the queue. Stalls are not counted against a job (`maxStalledCount` is high): the callers'
 * runs are idempotent, so there is no reason to give up on a job after a crash.
 */
export class JobQueue<Data> {
  private connection?: Redis;
  private queue?: Producer<Data>;
  private worker?: Worker<Data>;

  constructor(private readonly options: JobQueueOptions) {}

  /** Blocking: the worker's commands wait on the server, so no command timeout. */
  private redis(): Redis {
    const { redisUrl, logger, connectionName } = this.options;
    this.connection ??= createRedis({ url: redisUrl, logger, name: connectionName, blocking: true });
    return this.connection;
  }

  private producer(): Producer<Data> {
    if (!this.queue) {
      const { name, prefix, logger, label } = this.options;
      this.queue = new Queue(name, { connection: this.redis(), prefix });
      // An EventEmitter's unhandled 'error' would end the process; a Redis outage only delays the jobs.
      this.queue.on('error', (error) => logger.warn({ reason: error.message }, `${label} queue error`));
    }
    return this.queue;
  }

  /** Idempotent: a job id already in the queue is not added twice. Throws "queue unreachable" after the timeout. */
  async add(jobId: string, data: Data): Promise<void> {
    const { jobName, jobs, enqueueTimeoutMs } = this.options;
    const job = this.producer().add(jobName, data, { ...jobs, jobId });
    const added = job.then(() => true);
    // A late failure, after the timeout answered, is only the same outage again.
    added.catch(() => undefined);
    if (!(await settleWithin(added, enqueueTimeoutMs))) throw new Error('queue unreachable');
  }

  /** Starts this instance's worker: `run` executes a job's data, `failed` hears of every run that threw. */
  start(run: (data: Data) => Promise<void>, failed: (failure: FailedRun<Data>) => void): void {
    if (this.worker) return;
    const { name, prefix, logger, label, concurrency, lockMs } = this.options;
    this.worker = new Worker<Data>(name, (job: Job<Data>) => run(job.data), {
      connection: this.redis(),
      prefix,
      concurrency,
      lockDuration: lockMs,
      stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
      maxStalledCount: 1000,
    });
    this.worker.on('failed', (job, error) => {
      if (!job) return;
      failed({ data: job.data, attempt: job.attemptsMade, lastAttempt: job.attemptsMade >= (job.opts.attempts ?? 1), reason: error.message });
    });
    this.worker.on('error', (error) => logger.warn({ reason: error.message }, `${label} worker error`));
  }

  /** Stops taking jobs (SIGTERM) without waiting for the running ones. */
  async close(): Promise<void> {
    // Forced: a job cut short keeps its lock until it lapses, then another instance runs it again.
    await this.worker?.close(true);
    await this.queue?.close();
    if (this.connection) await closeRedis(this.connection);
    this.worker = undefined;
    this.queue = undefined;
    this.connection = undefined;
  }
}
