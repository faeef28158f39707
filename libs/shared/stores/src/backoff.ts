/** Exponential backoff with full jitter, capped. attempt starts at 1. */
export const backoffDelay = (attempt: number, baseMs = 200, capMs = 5000): number =>
  Math.round(Math.random() * Math.min(capMs, baseMs * 2 ** (attempt - 1)));

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
