import { ENTRY_LIMITS } from '@mt/domain';

/** The year of a `YYYY…` date (or a text ending in one, "March 1965"), or null when absent or outside the catalog's years. */
export function yearOf(date: string | null | undefined): number | null {
  const match = /^(\d{4})/.exec(date ?? '') ?? /\b(\d{4})$/.exec(date ?? '');
  const year = match ? Number(match[1]) : NaN;
  return year >= ENTRY_LIMITS.year.min && year <= ENTRY_LIMITS.year.max ? year : null;
}

/** A `YYYY-MM-DD` date, or null. */
export const dateOrNull = (date: string | null | undefined): string | null => (date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null);

/** Trimmed text cut to `maxLength`, or null when empty. */
export function textOrNull(text: string | null | undefined, maxLength = 5000): string | null {
  const trimmed = text?.trim();
  return trimmed ? trimmed.slice(0, maxLength) : null;
}

/** Distinct non-empty names, each cut to `maxLength`, at most `maxItems` (a catalog list field's bounds). */
export function namesWithin(names: readonly string[], maxItems: number, maxLength: number): string[] {
  const kept = new Set<string>();
  for (const name of names) {
    const text = textOrNull(name, maxLength);
    if (text) kept.add(text);
    if (kept.size >= maxItems) break;
  }
  return [...kept];
}

/** A positive integer no larger than `max`, or null. */
export const countOrNull = (value: number | null | undefined, max: number): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= max ? value : null;
