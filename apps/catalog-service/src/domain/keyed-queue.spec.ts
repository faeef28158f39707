import { KeyedQueue } from './keyed-queue';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedQueue', () => {
  it('runs tasks of one key one at a time, in arrival order', async () => {
    const queue = new KeyedQueue();
    const events: string[] = [];
    const task = (name: string, ms: number) => async () => {
      events.push(`start ${name}`);
      await tick(ms);
      events.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([queue.run('u', task('a', 20)), queue.run('u', task('b', 1)), queue.run('u', task('c', 5))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('runs tasks of different keys concurrently', async () => {
    const queue = new KeyedQueue();
    const events: string[] = [];
    await Promise.all(
      ['x', 'y'].map((key) =>
        queue.run(key, async () => {
          events.push(`start ${key}`);
          await tick(10);
          events.push(`end ${key}`);
        }),
      ),
    );
    expect(events).toEqual(['start x', 'start y', 'end x', 'end y']);
  });

  it('goes on after a failed task, hands the failure to its caller only, and forgets drained keys', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run('u', async () => {
      throw new Error('boom');
    });
    const next = queue.run('u', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
    await tick(0);
    expect(queue.size).toBe(0);
  });
});
