import type { CatalogEntry } from '@mt/api-client';

/** Fields every entry has, shown in their own places (title, year, the picture...) or not at all (ids, bookkeeping). */
const SHARED = new Set(['id', 'title', 'year', 'description', 'genres', 'created_by', 'created_at', 'updated_at', 'external_ids', 'poster_url', 'poster']);

/** `runtime_minutes` → "Runtime minutes", `isbn` → "ISBN". */
export function humanise(field: string): string {
  if (/^(isbn|isbn13|imdb|tmdb|tvdb)$/i.test(field)) return field.toUpperCase();
  const words = field.replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : field;
}

const display = (value: unknown): string | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) return value.length ? value.map(String).join(', ') : undefined;
  if (typeof value === 'object') return undefined;
  return String(value);
};

/** The category's own fields of an entry (director, authors, seasons...), in the order the API sends them. */
export function ownFields(entry: CatalogEntry): Array<{ field: string; label: string; value: string }> {
  return Object.entries(entry).flatMap(([field, value]) => {
    if (SHARED.has(field)) return [];
    const text = display(value);
    return text === undefined ? [] : [{ field, label: humanise(field), value: text }];
  });
}

/** `{ imdb: "tt0133093" }` → [["IMDB", "tt0133093"]]: ids other services use for the same work (docs/api.md "The catalog of a category"). */
export function externalIds(entry: CatalogEntry): Array<[string, string]> {
  const ids = entry['external_ids'];
  if (!ids || typeof ids !== 'object') return [];
  return Object.entries(ids as Record<string, unknown>).flatMap(([key, value]) => (typeof value === 'string' ? [[humanise(key), value] as [string, string]] : []));
}
