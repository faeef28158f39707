import { RateLimiter, RATE_LIMIT_WINDOW_MS, type RateLimiterOptions } from './rate-limiter';

/** The shared counters as Redis would keep them, with a log of the calls (each call = one round trip). */
function counters() {
  const values = new Map<string, number>();
  const calls: Array<{ subject: string; hits: number }> = [];
  let down = false;
  const repository: RateLimiterOptions['repository'] = {
    async add(subject, window, hits) {
      calls.push({ subject, hits });
      if (down) throw new Error('redis down');
      const key = `${window}:${subject}`;
      const value = (values.get(key) ?? 0) + hits;
      values.set(key, value);
      return value;
    },
  };
  return {
    repository,
    calls,
    value: (subject: string, window: number) => values.get(`${window}:${subject}`) ?? 0,
    setDown: (value: boolean) => (down = value),
  };
}

const START = 1_000 * RATE_LIMIT_WINDOW_MS + 10_000; // 10 s into a window

describe('rate limiter', () => {
  it('waits for Redis only on a subject’s first request of a window and counts the rest locally, exactly', async () => {
    const store = counters();
    const limiter = new RateLimiter({ repository: store.repository, limitPerMinute: 3, now: () => START, syncIntervalMs: 60_000 });
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await limiter.hit('ip:1'));
    expect(verdicts.map((v) => [v.remaining, v.allowed])).toEqual([
      [2, true],
      [1, true],
      [0, true],
      [0, false],
    ]);
    expect(verdicts[0]!.resetSeconds).toBe(50);
    expect(store.calls).toEqual([{ subject: 'ip:1', hits: 1 }]);
    await limiter.flush();
    expect(store.calls).toEqual([
      { subject: 'ip:1', hits: 1 },
      { subject: 'ip:1', hits: 3 },
    ]);
    expect(store.value('ip:1', 1000)).toBe(4);
  });

  it('adds the local hits to Redis after the sync interval and picks up other gateways’ hits', async () => {
    jest.useFakeTimers({ now: START });
    try {
      const store = counters();
      const limiter = new RateLimiter({ repository: store.repository, limitPerMinute: 10, syncIntervalMs: 100 });
      const other = new RateLimiter({ repository: store.repository, limitPerMinute: 10, syncIntervalMs: 100 });
      await limiter.hit('user:a');
      await limiter.hit('user:a');
      for (let i = 0; i < 5; i++) await other.hit('user:a');
      await jest.advanceTimersByTimeAsync(150);
      expect(store.value('user:a', 1000)).toBe(7);
      expect(store.calls).toHaveLength(4); // two first requests, then one INCRBY per gateway
      // Each sync also brings back the shared count: after its next one, the first gateway knows about
      // the other's five requests.
      expect((await limiter.hit('user:a')).remaining).toBe(6);
      await jest.advanceTimersByTimeAsync(150);
      expect(store.value('user:a', 1000)).toBe(8);
      expect((await limiter.hit('user:a')).remaining).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('still counts the hits a sync has sent to Redis while its answer is on the way', async () => {
    const store = counters();
    // Redis answers the first sync's INCRBY only when the test lets it.
    let answerSync: (() => void) | undefined;
    const repository: RateLimiterOptions['repository'] = {
      add: async (...args) => {
        if (store.calls.length === 1 && !answerSync) await new Promise<void>((resolve) => (answerSync = resolve));
        return store.repository.add(...args);
      },
    };
    const limiter = new RateLimiter({ repository, limitPerMinute: 3, now: () => START, syncIntervalMs: 60_000 });
    for (let i = 0; i < 3; i++) expect((await limiter.hit('ip:1')).allowed).toBe(true);
    const sync = limiter.flush(); // sends the two local hits
    await new Promise((resolve) => setImmediate(resolve));
    expect(answerSync).toBeDefined();
    // Before its answer the window holds three hits, not the one Redis last reported.
    expect(limiter.tryHit('ip:1')).toMatchObject({ remaining: 0, allowed: false });
    answerSync?.();
    await sync;
    expect(limiter.tryHit('ip:1')).toMatchObject({ remaining: 0, allowed: false });
    await limiter.flush();
    expect(store.value('ip:1', 1000)).toBe(5);
  });

  it('starts a new count in a new window', async () => {
    const store = counters();
    let at = START;
    const limiter = new RateLimiter({ repository: store.repository, limitPerMinute: 2, now: () => at, syncIntervalMs: 60_000 });
    await limiter.hit('ip:1');
    await limiter.hit('ip:1');
    expect((await limiter.hit('ip:1')).allowed).toBe(false);
    at += RATE_LIMIT_WINDOW_MS;
    expect(await limiter.hit('ip:1')).toEqual({ limit: 2, remaining: 1, resetSeconds: 50, allowed: true });
  });

  it('rejects when Redis cannot count the first request, and asks Redis again once a sync has failed', async () => {
    const store = counters();
    const limiter = new RateLimiter({ repository: store.repository, limitPerMinute: 5, now: () => START, syncIntervalMs: 60_000 });
    store.setDown(true);
    await expect(limiter.hit('ip:1')).rejects.toThrow('redis down');
    store.setDown(false);
    await limiter.hit('ip:1');
    await limiter.hit('ip:1'); // local
    store.setDown(true);
    await limiter.flush(); // fails: the local state is dropped
    await expect(limiter.hit('ip:1')).rejects.toThrow('redis down');
  });
});
