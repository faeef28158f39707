/**
 * Exponential backoff with full jitter, capped. attempt starts at 1. Hand-written rather than p-retry (issue 13,
 * bench/README.md "Libraries judged"): p-retry only multiplies its delay by a random 1–2 (never below the base,
 * so writers that collided retry nearly in step), has no hook for another delay, ends an aborted loop by
 * throwing, and retries only thrown errors, so its users (which also retry on refused statuses, reset on
 * success and log at most every few seconds) would not get shorter.
 */
export const backoffDelay = (attempt: number, baseMs = 200, capMs = 5000): number =>
  Math.round(Math.random() * Math.min(capMs, baseMs * 2 ** (attempt - 1)));

/**
 * Waits `ms`, or less when `signal` aborts. Removes its abort listener when done, so a retry loop that
 * sleeps many times on one signal does not pile up listeners (MaxListenersExceededWarning).
 */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** Settles with `promise`, or resolves `undefined` after `ms`; the timer never outlives the race. */
export async function settleWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `step` until it succeeds or `signal` aborts, waiting a growing, jittered delay after each failure
 * (reported to `onFailure` with that delay): a service's start-up work while its stores come and go.
 */
export async function retryUntilDone(step: () => Promise<void>, signal: AbortSignal, onFailure: (error: unknown, retryInMs: number) => void): Promise<void> {
  for (let attempt = 1; !signal.aborted; attempt++) {
    try {
      await step();
      return;
    } catch (error) {
      const delay = backoffDelay(attempt, 250, 5000);
      onFailure(error, delay);
      await sleep(delay, signal);
    }
  }
}
