import { pbkdf2 } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startIdleCollector, type IdleCollector } from './idle-collector';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Allocates about `mb` MB of objects that survive long enough to reach the old generation, then drops them. */
async function burst(mb: number): Promise<void> {
  let kept: string[][] = [];
  for (let i = 0; i < mb; i++) {
    kept.push(Array.from({ length: 8192 }, (_, j) => `garbage ${i} ${j} `.repeat(2)));
    if (i % 8 === 0) await pause(0);
  }
  kept = [];
  void kept;
}

describe('idle collector', () => {
  let collector: IdleCollector | undefined;
  // Each test starts from a collected heap (jest's own garbage would blur what a burst leaves).
  const plainGc = () => {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  };
  beforeEach(plainGc);
  afterEach(() => collector?.stop());

  it('collects the garbage a burst left once the process is idle, and only then', async () => {
    const collections: Array<[number, number]> = [];
    collector = startIdleCollector({ intervalMs: 200, minGrowthBytes: 8 * 1024 * 1024, onCollect: (before, after) => collections.push([before, after]) });
    await burst(64);
    const left = process.memoryUsage().heapUsed;
    for (let waited = 0; !collections.some(([before, after]) => before - after > 16 * 1024 * 1024) && waited < 3000; waited += 100) await pause(100);
    expect(collections.map(([before, after]) => before - after > 16 * 1024 * 1024)).toContain(true);
    expect(process.memoryUsage().heapUsed).toBeLessThan(left - 16 * 1024 * 1024);
    // Nothing new to collect: no further collection while idle.
    const count = collections.length;
    await pause(700);
    expect(collections).toHaveLength(count);
  });

  it('gives back the pages of a burst whose survivors are scattered, also after V8 collected its garbage', async () => {
    const collections: number[] = [];
    collector = startIdleCollector({ intervalMs: 200, minGrowthBytes: 8 * 1024 * 1024, onCollect: (before) => collections.push(before) });
    let scattered: Array<{ i: number; s: string }> = [];
    for (let i = 0; i < 1_500_000; i++) {
      scattered.push({ i, s: `survivor? ${i}` });
      if (i % 100_000 === 0) await pause(0);
    }
    scattered = scattered.filter((_, i) => i % 20 === 0); // one in twenty survives, on every page
    plainGc(); // as V8 does by itself: the garbage goes, the pages stay
    const committed = process.memoryUsage().heapTotal;
    for (let waited = 0; !collections.length && waited < 3000; waited += 100) await pause(100);
    expect(collections.length).toBeGreaterThanOrEqual(1);
    expect(process.memoryUsage().heapTotal).toBeLessThan(committed / 2);
    expect(scattered).toHaveLength(75_000);
  });

  it('leaves alone a process whose other threads are busy while its event loop idles', async () => {
    const collections: number[] = [];
    collector = startIdleCollector({ intervalMs: 200, minGrowthBytes: 1024 * 1024, onCollect: (before) => collections.push(before) });
    await burst(32);
    const until = Date.now() + 900;
    // pbkdf2 on libuv's threads: the event loop waits, the process works.
    while (Date.now() < until) await Promise.all(Array.from({ length: 4 }, () => new Promise((resolve) => pbkdf2('secret', 'salt', 150_000, 32, 'sha256', resolve))));
    expect(collections).toEqual([]);
  });

  it('leaves a busy process alone', async () => {
    const collections: number[] = [];
    collector = startIdleCollector({ intervalMs: 200, minGrowthBytes: 1024 * 1024, onCollect: (before) => collections.push(before) });
    const until = Date.now() + 900;
    while (Date.now() < until) {
      await burst(2);
      const spin = Date.now() + 20;
      while (Date.now() < spin); // keep the event loop above the idle line
    }
    expect(collections).toEqual([]);
  });
});
