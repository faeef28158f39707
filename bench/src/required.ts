/** `value`, or an error naming what is missing: for lookups that cannot miss unless the harness has a bug. */
export function required<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`benchmark bug: ${what} is missing`);
  return value;
}
