import { KeyedMutex } from './keyed-mutex';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedMutex', () => {
  it('runs the holders of one key one at a time, in arrival order', async () => {
    const mutex = new KeyedMutex();
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        mutex.use('same', async () => {
          running++;
          peak = Math.max(peak, running);
          order.push(i);
          await pause(2);
          running--;
        }),
      ),
    );
    expect(peak).toBe(1);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('runs different keys in parallel', async () => {
    const mutex = new KeyedMutex();
    let running = 0;
    let peak = 0;
    await Promise.all(
      ['a', 'b', 'c'].map((key) =>
        mutex.use(key, async () => {
          running++;
          peak = Math.max(peak, running);
          await pause(5);
          running--;
        }),
      ),
    );
    expect(peak).toBe(3);
  });

  it('passes on after a holder throws, and forgets idle keys', async () => {
    const mutex = new KeyedMutex();
    const failed = mutex.use('k', () => Promise.reject(new Error('boom')));
    const next = mutex.use('k', () => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
    expect(mutex.size).toBe(0);
  });

  it('holds every key of a set, so holders of overlapping sets take turns and never deadlock', async () => {
    const mutex = new KeyedMutex();
    const held = new Set<string>();
    const clashes: string[] = [];
    const hold = (keys: string[]) =>
      mutex.useAll(keys, async () => {
        for (const key of keys) if (held.has(key)) clashes.push(key);
        keys.forEach((key) => held.add(key));
        await pause(2);
        keys.forEach((key) => held.delete(key));
      });
    await Promise.all([hold(['b', 'a']), hold(['a', 'b']), hold(['c', 'b']), hold(['c']), hold([]), hold(['a', 'a'])]);
    expect(clashes).toEqual([]);
    expect(mutex.size).toBe(0);
  });
});
