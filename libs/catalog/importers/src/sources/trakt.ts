import { failedRow, skippedRow, type ImportEntry, type ImportRow } from '../model';
import { optionalDate } from '../normalise/dates';
import { completeRow, entryWith } from '../normalise/row';
import { scoreFromTenPoints } from '../normalise/scores';
import { multiLine, singleLine, workKey } from '../normalise/text';
import { readJsonRows } from '../reading/json-rows';
import type { ImportInput } from '../reading/byte-chunks';
import { latestPerWork, type RepeatableRow } from './latest-per-work';
import type { ImportSourceParser, ParseContext } from './source';

/**
 * Trakt's export: one JSON array per file, each element shaped as the Trakt API returns it —
 * watched-movies.json / watched-shows.json (`plays`, `last_watched_at`, shows with `seasons[].episodes[]`),
 * ratings-movies.json / ratings-shows.json (`rating` 1–10, `rated_at`), lists-watchlist.json or
 * watchlist-*.json (`listed_at`, `notes`, movies and shows mixed), watched-history.json (`watched_at`, one
 * element per play). The kind is read from each element, so the file's name does not matter.
 */
type TraktKind = 'watched' | 'rating' | 'watchlist' | 'history';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function kindOf(element: Json): TraktKind | undefined {
  if ('plays' in element || 'last_watched_at' in element) return 'watched';
  if ('rated_at' in element || 'rating' in element) return 'rating';
  if ('listed_at' in element) return 'watchlist';
  if ('watched_at' in element) return 'history';
  return undefined;
}

/** Episodes seen of a watched show (specials, season 0, not counted): its progress. */
function episodesSeen(seasons: unknown): number {
  if (!Array.isArray(seasons)) return 0;
  let seen = 0;
  for (const season of seasons) {
    if (!isObject(season) || season['number'] === 0 || !Array.isArray(season['episodes'])) continue;
    seen += season['episodes'].filter(
      (episode) => isObject(episode) && (typeof episode['plays'] !== 'number' || episode['plays'] > 0),
    ).length;
  }
  return seen;
}

function entryOf(kind: TraktKind, element: Json, isShow: boolean, warnings: string[]): ImportEntry {
  switch (kind) {
    case 'watched':
      // Trakt does not say whether every episode of a show was seen: a show in progress, with the count.
      return isShow
        ? entryWith('watching', { progress: episodesSeen(element['seasons']) })
        : entryWith('completed', {
            finished_at: optionalDate(text(element['last_watched_at']), 'last_watched_at', warnings),
          });
    case 'rating':
      return entryWith('completed', {
        score: scoreFromTenPoints(element['rating'] as number | string | null, warnings),
      });
    case 'watchlist':
      return entryWith('plan_to_watch', { notes: multiLine(text(element['notes'])) });
    case 'history':
      return entryWith('completed', {
        finished_at: optionalDate(text(element['watched_at']), 'watched_at', warnings),
      });
  }
}

function rowOf(row: number, element: unknown, context: ParseContext): RepeatableRow | ImportRow {
  if (!isObject(element)) return failedRow(row, 'not a Trakt item (expected an object)');
  const wanted = context.category === 'movies' ? 'movie' : 'show';
  if ('episode' in element || 'season' in element) {
    return skippedRow(
      row,
      `Trakt ${'episode' in element ? 'episode' : 'season'} rows are not imported (only whole ${wanted}s)`,
    );
  }
  const work = element[wanted];
  if (!isObject(work)) {
    const other = ['movie', 'show'].find((type) => isObject(element[type]));
    return other
      ? skippedRow(row, `a Trakt ${other} is not imported into ${context.category}`)
      : failedRow(row, 'not a Trakt movie or show');
  }
  const kind = kindOf(element);
  if (!kind) return failedRow(row, 'not a Trakt watched, ratings, watchlist or history item');
  const warnings: string[] = [];
  const ids = isObject(work['ids']) ? work['ids'] : {};
  const idOf = (key: string) => ids[key] as string | number | null | undefined;
  const parsed = completeRow(
    row,
    context.category,
    {
      title: text(work['title']),
      year: work['year'] as number | string | null | undefined,
      externalIds: {
        imdb: idOf('imdb'),
        tmdb: idOf('tmdb'),
        ...(wanted === 'show' ? { tvdb: idOf('tvdb') } : {}),
      },
    },
    entryOf(kind, element, wanted === 'show', warnings),
    warnings,
  );
  if (kind !== 'history' || !parsed.ok) return parsed;
  // History has one element per play: the plays of one work collapse to its latest.
  const traktId = idOf('trakt');
  const key =
    traktId !== null && traktId !== undefined
      ? `trakt:${traktId}`
      : workKey(singleLine(text(work['title'])) ?? '', parsed.item.year);
  return { key, date: parsed.entry.finished_at, row: parsed };
}

async function* parseTrakt(input: ImportInput, context: ParseContext): AsyncGenerator<ImportRow> {
  async function* rows(): AsyncGenerator<RepeatableRow | ImportRow> {
    for await (const event of readJsonRows(input, { root: 'array' }, context.limits)) {
      if (event.kind === 'row') yield rowOf(event.row, event.value, context);
    }
  }
  yield* latestPerWork(rows());
}

export const traktSource: ImportSourceParser = {
  id: 'trakt',
  categories: ['movies', 'tvshows'],
  mediaType: 'application/json',
  parse: parseTrakt,
};
