export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it returns true, at most `timeoutMs`; fails with the last observation, so a condition
 * that never comes true says what was seen instead.
 */
export async function eventually(
  what: string,
  probe: () => Promise<boolean | string>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<number> {
  const started = Date.now();
  let last: unknown = 'never checked';
  while (Date.now() - started < timeoutMs) {
    try {
      const result = await probe();
      if (result === true) return Date.now() - started;
      last = result;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(intervalMs);
  }
  throw new Error(
    `${what}: not within ${timeoutMs} ms (last seen: ${typeof last === 'string' ? last : JSON.stringify(last)})`,
  );
}
