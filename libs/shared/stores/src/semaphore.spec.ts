import { Semaphore } from './semaphore';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Semaphore', () => {
  it('never lets more than its limit run at once, and runs every waiter in arrival order', async () => {
    const slots = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const runs = Array.from({ length: 6 }, (_, i) =>
      slots.use(async () => {
        running++;
        peak = Math.max(peak, running);
        order.push(i);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
      }),
    );
    while (order.length < 6) {
      await tick();
      expect(running).toBeLessThanOrEqual(2);
      releases.shift()?.();
    }
    releases.forEach((release) => release());
    await Promise.all(runs);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(slots.inUse).toBe(0);
  });

  it('frees the slot of a holder that throws', async () => {
    const slots = new Semaphore(1);
    await expect(slots.use(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(slots.use(() => Promise.resolve('next'))).resolves.toBe('next');
    expect(slots.inUse).toBe(0);
  });

  it('refuses a limit below one', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
