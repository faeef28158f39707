import { failedRow, skippedRow, type ImportEntry, type ImportRow } from '../model';
import { optionalDate } from '../normalise/dates';
import { NO_EPISODE, playTime, RowPlays, type PlayedEpisode } from '../normalise/plays';
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

/** A season or episode number as the catalog takes it (docs/api.md "Episodes"), else undefined. */
const episodeNumber = (value: unknown, min: number): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= 10_000
    ? value
    : undefined;

/** A play count: Trakt writes `plays` on every watched work and episode; a work listed without it was seen once. */
const playCount = (value: unknown): number => (typeof value === 'number' ? value : 1);

/** The episodes of a watched show's `seasons[].episodes[]` with their play counts and latest play. */
function* watchedEpisodes(seasons: unknown, warnings: string[]): Generator<[PlayedEpisode, Json]> {
  if (!Array.isArray(seasons)) return;
  for (const season of seasons) {
    if (!isObject(season) || !Array.isArray(season['episodes'])) continue;
    for (const episode of season['episodes']) {
      if (!isObject(episode)) continue;
      const played = {
        season: episodeNumber(season['number'], 0),
        number: episodeNumber(episode['number'], 1),
      };
      if (played.season === undefined || played.number === undefined) {
        warnings.push(
          `an episode numbered '${String(season['number'])}x${String(episode['number'])}' is not a season and episode number and was dropped`.slice(
            0,
            200,
          ),
        );
        continue;
      }
      yield [played as PlayedEpisode, episode];
    }
  }
}

/** Regular episodes (season 0, specials, not counted) that have a play: a show's progress. */
const episodesSeen = (plays: readonly PlayedEpisode[]): number =>
  new Set(
    plays
      .filter((play) => play.season !== null && play.season > 0)
      .map((play) => `${play.season}x${play.number}`),
  ).size;

/**
 * The plays an element records: a watched movie's `plays` and a watched show's episodes' `plays`, each count
 * with one date (`last_watched_at`) — so the latest play of each is dated and the others' time is unknown; a
 * history element is one play.
 */
function playsOf(kind: TraktKind, element: Json, plays: RowPlays, warnings: string[]): void {
  if (kind === 'history') {
    const episode = isObject(element['episode']) ? element['episode'] : undefined;
    const played = episode
      ? { season: episodeNumber(episode['season'], 0), number: episodeNumber(episode['number'], 1) }
      : NO_EPISODE;
    if (played.season === undefined || played.number === undefined)
      warnings.push('the episode has no valid season and number: its play was dropped');
    else plays.add({ ...(played as PlayedEpisode), ...playTime(text(element['watched_at'])) });
  } else if (kind === 'watched' && 'seasons' in element) {
    for (const [episode, watched] of watchedEpisodes(element['seasons'], warnings))
      plays.addCounted(playCount(watched['plays']), episode, playTime(text(watched['last_watched_at'])));
  } else if (kind === 'watched') {
    plays.addCounted(playCount(element['plays']), NO_EPISODE, playTime(text(element['last_watched_at'])));
  }
}

function entryOf(
  kind: TraktKind,
  element: Json,
  isShow: boolean,
  plays: readonly PlayedEpisode[],
  warnings: string[],
): ImportEntry {
  switch (kind) {
    case 'watched':
      // Trakt does not say whether every episode of a show was seen: a show in progress, with the count.
      return isShow
        ? entryWith('watching', { progress: episodesSeen(plays) })
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
      // An episode's play: the show is being watched (its progress follows from all its plays, see finish).
      if (isShow) return entryWith('watching', { progress: episodesSeen(plays) });
      return entryWith('completed', {
        finished_at: optionalDate(text(element['watched_at']), 'watched_at', warnings),
      });
  }
}

function rowOf(row: number, element: unknown, context: ParseContext): RepeatableRow | ImportRow {
  if (!isObject(element)) return failedRow(row, 'not a Trakt item (expected an object)');
  const wanted = context.category === 'movies' ? 'movie' : 'show';
  const showHistory = wanted === 'show' && 'episode' in element && 'watched_at' in element;
  if (('episode' in element || 'season' in element) && !showHistory) {
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
  const plays = new RowPlays(context.limits.maxRowPlays);
  playsOf(kind, element, plays, warnings);
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
    entryOf(kind, element, wanted === 'show', plays.plays, warnings),
    warnings,
    plays,
  );
  if (!parsed.ok) return parsed;
  // Trakt says what was played of a show, never whether the user finished or dropped it.
  const result =
    wanted === 'show' && (kind === 'watched' || kind === 'history')
      ? { ...parsed, playsDecideStatus: true as const }
      : parsed;
  if (kind !== 'history') return result;
  // History has one element per play: the plays of one work collapse to its latest.
  const traktId = idOf('trakt');
  const key =
    traktId !== null && traktId !== undefined
      ? `trakt:${traktId}`
      : workKey(singleLine(text(work['title'])) ?? '', parsed.item.year);
  return { key, date: parsed.entry?.finished_at ?? null, row: result };
}

async function* parseTrakt(input: ImportInput, context: ParseContext): AsyncGenerator<ImportRow> {
  async function* rows(): AsyncGenerator<RepeatableRow | ImportRow> {
    for await (const event of readJsonRows(input, { root: 'array' }, context.limits)) {
      if (event.kind === 'row') yield rowOf(event.row, event.value, context);
    }
  }
  yield* latestPerWork(rows(), { maxRowPlays: context.limits.maxRowPlays, finish: withProgressOfPlays });
}

/** A show gathered from history rows: its progress counts the episodes of all of them. */
function withProgressOfPlays(row: ImportRow): ImportRow {
  if (!row.ok || row.entry?.status !== 'watching') return row;
  return { ...row, entry: { ...row.entry, progress: episodesSeen(row.plays) } };
}

export const traktSource: ImportSourceParser = {
  id: 'trakt',
  categories: ['movies', 'tvshows'],
  mediaType: 'application/json',
  parse: parseTrakt,
};
