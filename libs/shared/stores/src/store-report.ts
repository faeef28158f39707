/** A store's URL as logs may show it: the address, without credentials. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^/@\s]+@/, '//[redacted]@');
}

/**
 * The driver's reason in one line: `connect ECONNREFUSED 127.0.0.1:6379`, `getaddrinfo ENOTFOUND mongo`.
 * Node reports a refused `localhost` (tried over IPv6 and IPv4) as an AggregateError with an empty message:
 * its first cause says it. Duck typed: errors of Node's own modules may come from another realm.
 */
export function connectionFailureReason(error: unknown): string {
  if (typeof error !== 'object' || error === null || !('message' in error)) return String(error);
  const { message, code, name, errors } = error as Partial<AggregateError & NodeJS.ErrnoException>;
  if (!message && Array.isArray(errors) && errors.length > 0) return connectionFailureReason(errors[0]);
  return redactUrl(String(message || code || name));
}

/** How often a store that stays unreachable is reported again: one line per this many ms at most. */
export const UNREACHABLE_REPORT_INTERVAL_MS = 5000;

/**
 * Reports a store that cannot be reached: the first failure at once, then at most one line every
 * `intervalMs` however fast the retries are, each with the attempt count and the time spent so far.
 */
export function unreachableReporter(
  report: (fields: { attempt: number; waited_s: number }) => void,
  intervalMs = UNREACHABLE_REPORT_INTERVAL_MS,
) {
  const startedAt = Date.now();
  let lastAt: number | undefined;
  return (attempt: number): void => {
    const now = Date.now();
    if (lastAt !== undefined && now - lastAt < intervalMs) return;
    lastAt = now;
    report({ attempt, waited_s: Math.round((now - startedAt) / 1000) });
  };
}
