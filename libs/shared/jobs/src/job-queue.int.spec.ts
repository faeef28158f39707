import { closedPort, deleteRedisPrefix, silentLogger, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { JobQueue, type FailedRun, type JobQueueOptions } from './job-queue';

interface TestJob {
  id: string;
}

const queues: JobQueue<TestJob>[] = [];
const prefixes: string[] = [];

function queueOf(options: Partial<JobQueueOptions> = {}): JobQueue<TestJob> {
  // Hash-tagged as the services' prefixes are, so the spec also runs on a Redis Cluster.
  const prefix = `${testRedisPrefix('jobs')}{bull:test}`;
  prefixes.push(prefix);
  const queue = new JobQueue<TestJob>({
    name: 'test-jobs',
    prefix,
    redisUrl: testRedisUrl(),
    connectionName: 'jobs-int',
    logger: silentLogger(),
    label: 'test',
    jobName: 'job',
    jobs: { attempts: 1, removeOnComplete: true, removeOnFail: true },
    enqueueTimeoutMs: 5000,
    concurrency: 2,
    lockMs: 5000,
    ...options,
  });
  queues.push(queue);
  return queue;
}

/** Resolves once `done` holds, checking every few milliseconds; fails the spec after `ms`. */
async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

afterEach(async () => {
  await Promise.all(queues.splice(0).map((queue) => queue.close()));
  await Promise.all(prefixes.splice(0).map((prefix) => deleteRedisPrefix(prefix)));
});

describe('JobQueue', () => {
  it('runs a job added twice under one id once', async () => {
    const queue = queueOf();
    await queue.add('a', { id: 'a' });
    await queue.add('a', { id: 'a' });
    await queue.add('b', { id: 'b' });
    const runs: string[] = [];
    queue.start(
      async (job) => void runs.push(job.id),
      () => undefined,
    );
    await until(() => runs.length >= 2);
    // Time for a duplicate run to show up, were there one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs.sort()).toEqual(['a', 'b']);
  });

  it('runs a throwing job again until its attempts are spent, telling each failure and the last', async () => {
    const queue = queueOf({ jobs: { attempts: 3, backoff: { type: 'fixed', delay: 10 }, removeOnComplete: true, removeOnFail: true } });
    const failures: Array<Omit<FailedRun<TestJob>, 'data'>> = [];
    queue.start(
      async () => {
        throw new Error('store down');
      },
      ({ attempt, lastAttempt, reason }) => failures.push({ attempt, lastAttempt, reason }),
    );
    await queue.add('c', { id: 'c' });
    await until(() => failures.length >= 3);
    expect(failures).toEqual([
      { attempt: 1, lastAttempt: false, reason: 'store down' },
      { attempt: 2, lastAttempt: false, reason: 'store down' },
      { attempt: 3, lastAttempt: true, reason: 'store down' },
    ]);
  });

  it('fails an enqueue with "queue unreachable" once its timeout passes while Redis is unreachable', async () => {
    const queue = queueOf({ redisUrl: `redis://127.0.0.1:${await closedPort()}`, enqueueTimeoutMs: 300 });
    const startedAt = Date.now();
    await expect(queue.add('d', { id: 'd' })).rejects.toThrow('queue unreachable');
    expect(Date.now() - startedAt).toBeLessThan(2000);
  });
});
