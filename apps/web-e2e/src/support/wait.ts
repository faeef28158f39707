import type { Locator } from 'playwright-core';

/** Retries `check` (assertions included) until it passes; rethrows its last failure at the deadline. */
export async function until<T>(check: () => Promise<T>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export const visible = (locator: Locator) => locator.first().waitFor({ state: 'visible' });
export const hidden = (locator: Locator) => locator.first().waitFor({ state: 'hidden' });

export const textOf = async (locator: Locator) => ((await locator.first().textContent()) ?? '').trim();

export const expectText = (locator: Locator, expected: string | RegExp) =>
  until(async () => {
    const text = await textOf(locator);
    if (typeof expected === 'string') expect(text).toBe(expected);
    else expect(text).toMatch(expected);
  });

export const expectCount = (locator: Locator, count: number) => until(async () => expect(await locator.count()).toBe(count));
