import { titleKey } from '@mt/domain';

/** One line of text: trimmed, every run of whitespace (line breaks included) one space; empty → null. */
export function singleLine(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const text = raw.replace(/\s+/gu, ' ').trim();
  return text === '' ? null : text;
}

/** Multi-line text (notes): line ends made `\n`, outer whitespace trimmed; empty → null. */
export function multiLine(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const text = raw.replace(/\r\n?/g, '\n').trim();
  return text === '' ? null : text;
}

/** A comma-separated list of names ("Drama, Crime"; "Lana Wachowski, Lilly Wachowski"), trimmed, without empties. */
export function commaList(raw: string | null | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((part) => singleLine(part))
    .filter((part): part is string => part !== null);
}

/** A whole number written as digits (surrounding space allowed), else undefined. */
export function wholeNumber(raw: string | number | null | undefined): number | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : undefined;
  if (raw === null || raw === undefined) return undefined;
  const text = raw.trim();
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/**
 * The key of a work across the rows of one file: the title folded as the catalog folds it for duplicates
 * (titleKey of @mt/domain), and the year.
 */
export function workKey(title: string, year: number | null): string {
  return `${titleKey(title)}\u0000${year ?? ''}`;
}
