/** Counts how many calls run at once, per key and in all: what a spec of "one at a time per key" asserts on. */
export function overlapCounter() {
  const inFlight = new Map<string, number>();
  const mostAtOnce = new Map<string, number>();
  let all = 0;
  let mostOfAll = 0;
  return {
    /** Runs `work` counted under `key`, holding it a few milliseconds so that overlapping calls meet. */
    async during<T>(key: string, work: () => T): Promise<T> {
      mostOfAll = Math.max(mostOfAll, ++all);
      const now = (inFlight.get(key) ?? 0) + 1;
      inFlight.set(key, now);
      mostAtOnce.set(key, Math.max(mostAtOnce.get(key) ?? 0, now));
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight.set(key, (inFlight.get(key) ?? 1) - 1);
      all--;
      return work();
    },
    /** The most calls of each key that ran at once. */
    mostPerKey: () => [...mostAtOnce.values()],
    mostOfAll: () => mostOfAll,
  };
}
