import { captureLogger } from '@mt/testing';
import { ExpirySweeper } from './expiry-sweeper';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('expiry sweeper', () => {
  it('sweeps every interval, never two at once, and keeps going after a failure', async () => {
    let running = 0;
    let maxRunning = 0;
    let calls = 0;
    const { logger, lines } = captureLogger();
    const sweeper = new ExpirySweeper({
      intervalMs: 20,
      logger,
      sweep: async () => {
        calls += 1;
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await sleep(30);
        running -= 1;
        if (calls === 1) throw new Error('redis down');
      },
    });
    sweeper.start();
    await sleep(250);
    await sweeper.stop();
    const callsAtStop = calls;
    expect(callsAtStop).toBeGreaterThanOrEqual(3);
    expect(maxRunning).toBe(1);
    expect(running).toBe(0);
    expect(lines().some((line) => line.includes('expiry sweep failed') && line.includes('redis down'))).toBe(true);
    await sleep(100);
    expect(calls).toBe(callsAtStop);
  });
});
