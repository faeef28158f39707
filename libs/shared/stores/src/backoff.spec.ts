import { getEventListeners } from 'node:events';
import { backoffDelay, settleWithin, sleep } from './backoff';

describe('backoffDelay', () => {
  it('stays within the exponential bound and the cap', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      for (let i = 0; i < 50; i++) {
        const delay = backoffDelay(attempt, 200, 5000);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(Math.min(5000, 200 * 2 ** (attempt - 1)));
      }
    }
  });
});

describe('sleep', () => {
  it('waits about the given time', async () => {
    const startedAt = Date.now();
    await sleep(50);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(45);
  });

  it('ends early when the signal aborts, and at once when it already has', async () => {
    const controller = new AbortController();
    const startedAt = Date.now();
    setTimeout(() => controller.abort(), 20);
    await sleep(10_000, controller.signal);
    await sleep(10_000, controller.signal);
    expect(Date.now() - startedAt).toBeLessThan(1000);
  });

  it('removes its abort listener, so retry loops on one signal do not pile them up', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 20; i++) await sleep(1, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('settleWithin', () => {
  it('returns the value of a prompt promise and undefined for a slow one', async () => {
    await expect(settleWithin(Promise.resolve('ok'), 100)).resolves.toBe('ok');
    await expect(settleWithin(new Promise(() => undefined), 20)).resolves.toBeUndefined();
  });
});
