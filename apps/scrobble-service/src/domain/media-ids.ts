import type { MediaIds } from './scrobble-event';

const IMDB = /^tt\d{7,10}$/;
const NUMERIC = /^[1-9]\d{0,9}$/;

/** Keeps only well-formed ids: a malformed one would be a 400 from the catalog's lookup, never a match. */
export function mediaIds(candidates: { imdb?: unknown; tmdb?: unknown; tvdb?: unknown }): MediaIds {
  const ids: MediaIds = {};
  const text = (value: unknown) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '');
  const imdb = text(candidates.imdb);
  const tmdb = text(candidates.tmdb);
  const tvdb = text(candidates.tvdb);
  if (IMDB.test(imdb)) ids.imdb = imdb;
  if (NUMERIC.test(tmdb)) ids.tmdb = tmdb;
  if (NUMERIC.test(tvdb)) ids.tvdb = tvdb;
  return ids;
}

/** `imdb:tt…` pairs in a fixed order (imdb, tmdb, tvdb): the catalog's lookup form. */
export const idPairs = (ids: MediaIds): Array<[key: keyof MediaIds, value: string]> =>
  (['imdb', 'tmdb', 'tvdb'] as const).flatMap((key) => (ids[key] ? [[key, ids[key] as string] as [keyof MediaIds, string]] : []));

export const hasIds = (ids: MediaIds): boolean => idPairs(ids).length > 0;
