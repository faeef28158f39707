import type { FieldRule } from './entry-fields';
import { COMMON_FIELD_NAMES } from './entry-fields';
import { GOODREADS_ID, IMDB_ID, ISBN13_ID, OPENLIBRARY_ID, TMDB_ID, TVDB_ID, type ExternalIdKey } from './external-ids';
import { DEFAULT_STATUS_LABELS, type StatusLabels } from './statuses';

export const PROGRESS_UNITS = ['minutes', 'episodes', 'pages'] as const;
export type ProgressUnit = (typeof PROGRESS_UNITS)[number];

/** The shipped categories' field holding a work's whole length in its progress unit (a show's episodes...). */
export const PROGRESS_LENGTH_FIELDS: Readonly<Record<ProgressUnit, string>> = { minutes: 'runtime_minutes', episodes: 'episodes', pages: 'pages' };

/** What a metadata provider is asked for on a category's behalf: its films, its series, its books. */
export type ProviderMedia = 'movie' | 'tv' | 'book';

/** How a category's works are split into episodes: the own fields that count them (kept in step by the catalog). */
export interface EpisodicCapability {
  readonly seasonsField: string;
  readonly episodesField: string;
}

/** The facts that make one category different from another, with no code of any service in them. */
export interface MediaCategory<Field = FieldRule> {
  /** URL segment, database suffix, and registry key: lower-case letters, digits, dashes. */
  readonly id: string;
  readonly displayName: string;
  readonly description: string;
  readonly icon: string;
  /** What a list entry's `progress` counts. */
  readonly progressUnit: ProgressUnit;
  /** How clients show each list status; the stored values stay the five statuses. */
  readonly statusLabels?: StatusLabels;
  /** The category's own entry fields, in the order they appear in responses. */
  readonly fields: Readonly<Record<string, Field>>;
  /**
   * Keys of `external_ids` and the format of their values; a key not listed is refused. A `(key, value)`
   * pair belongs to at most one entry of the category.
   */
  readonly externalIds?: Readonly<Record<string, ExternalIdKey>>;
  /** Own fields searched by `person=`, folded and matched by words and word prefixes like titles. */
  readonly personFields?: readonly string[];
  /** Default port of a catalog instance of this category when PORT is not set. */
  readonly defaultPort: number;
  /** The metadata providers that can fill this category, and what each is asked for; configuration enables them. */
  readonly providers?: Readonly<Record<string, ProviderMedia>>;
  /**
   * Its works are watched episode by episode (seasons of numbered episodes): the catalog keeps episodes, plays
   * may name them, and the named own fields count the regular seasons and episodes. Absent: plays are of the whole work.
   */
  readonly episodic?: EpisodicCapability;
}

export const MOVIES = {
  id: 'movies',
  displayName: 'Movies',
  description: 'Feature films, documentaries and shorts',
  icon: 'film',
  progressUnit: 'minutes',
  statusLabels: { watching: 'Watching', completed: 'Watched', on_hold: 'On hold', dropped: 'Dropped', plan_to_watch: 'Want to watch' },
  defaultPort: 3011,
  fields: {
    runtime_minutes: { kind: 'integer', min: 1, max: 10000, description: 'Running time in minutes', example: 136 },
    director: { kind: 'text', maxLength: 200, description: 'Director', example: 'Lana Wachowski' },
  },
  externalIds: { imdb: IMDB_ID, tmdb: TMDB_ID },
  personFields: ['director'],
  providers: { tmdb: 'movie' },
} as const satisfies MediaCategory;

export const TVSHOWS = {
  id: 'tvshows',
  displayName: 'TV Shows',
  description: 'Television series and miniseries',
  icon: 'tv',
  progressUnit: 'episodes',
  statusLabels: { watching: 'Watching', completed: 'Completed', on_hold: 'On hold', dropped: 'Dropped', plan_to_watch: 'Plan to watch' },
  defaultPort: 3012,
  fields: {
    seasons: { kind: 'integer', min: 0, max: 1000, description: 'Number of seasons', example: 5 },
    episodes: { kind: 'integer', min: 0, max: 100000, description: 'Number of episodes', example: 62 },
    network: { kind: 'text', maxLength: 200, description: 'Original network or platform', example: 'AMC' },
  },
  externalIds: { imdb: { ...IMDB_ID, example: 'tt0903747' }, tmdb: { ...TMDB_ID, example: '1396' }, tvdb: TVDB_ID },
  personFields: ['network'],
  providers: { tmdb: 'tv' },
  episodic: { seasonsField: 'seasons', episodesField: 'episodes' },
} as const satisfies MediaCategory;

export const BOOKS = {
  id: 'books',
  displayName: 'Books',
  description: 'Novels, non-fiction and comics',
  icon: 'book',
  progressUnit: 'pages',
  statusLabels: { watching: 'Reading', completed: 'Read', on_hold: 'On hold', dropped: 'Abandoned', plan_to_watch: 'Want to read' },
  defaultPort: 3013,
  fields: {
    authors: { kind: 'list', maxItems: 20, maxLength: 200, description: 'Authors', example: ['Ursula K. Le Guin'] },
    isbn: { kind: 'isbn', description: 'ISBN', example: '978-0-441-47812-5' },
    pages: { kind: 'integer', min: 1, max: 100000, description: 'Number of pages', example: 304 },
  },
  externalIds: { isbn13: ISBN13_ID, openlibrary: OPENLIBRARY_ID, goodreads: GOODREADS_ID },
  personFields: ['authors'],
  providers: { openlibrary: 'book' },
} as const satisfies MediaCategory;

/** The shipped categories, in the order of their default ports. */
export const MEDIA_CATEGORIES = [MOVIES, TVSHOWS, BOOKS] as const;
export type MediaCategoryId = (typeof MEDIA_CATEGORIES)[number]['id'];
/** The shipped categories' ids, sorted. */
export const MEDIA_CATEGORY_IDS: readonly MediaCategoryId[] = /*#__PURE__*/ MEDIA_CATEGORIES.map((category) => category.id).sort();

export const isMediaCategoryId = (value: unknown): value is MediaCategoryId =>
  typeof value === 'string' && (MEDIA_CATEGORY_IDS as readonly string[]).includes(value);

/** A shipped category by its id. */
export function mediaCategory(id: MediaCategoryId): MediaCategory {
  return MEDIA_CATEGORIES.find((category) => category.id === id) as MediaCategory;
}

/** The category's status labels, or the default ones when it names none. */
export const statusLabelsOf = (category: Pick<MediaCategory<unknown>, 'statusLabels'>): StatusLabels =>
  category.statusLabels ?? DEFAULT_STATUS_LABELS;

/** The status labels of a category by its id: a shipped category's own, else the default ones. */
export const statusLabelsOfId = (id: string): StatusLabels => (isMediaCategoryId(id) ? statusLabelsOf(mediaCategory(id)) : DEFAULT_STATUS_LABELS);

/** Every set of status labels the shipped categories use, the default set included. */
export const ALL_STATUS_LABELS: readonly StatusLabels[] = /*#__PURE__*/ [DEFAULT_STATUS_LABELS, ...MEDIA_CATEGORIES.map((category) => statusLabelsOf(category))];

/** The category's external id keys ({} when it declares none). */
export const externalIdKeys = (category: Pick<MediaCategory<unknown>, 'externalIds'>): Readonly<Record<string, ExternalIdKey>> =>
  category.externalIds ?? {};

const CATEGORY_ID = /^[a-z][a-z0-9-]{0,31}$/;
const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const EXTERNAL_KEY = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * Throws when a definition breaks a rule every category obeys (ids, field names, labels, person fields,
 * external id keys): a mistake in one is a programming error, to fail at start-up, never at request time.
 */
export function assertValidCategory(definition: MediaCategory<unknown>): void {
  if (!CATEGORY_ID.test(definition.id)) throw new Error(`category id '${definition.id}' is not a valid URL segment`);
  if (!(PROGRESS_UNITS as readonly string[]).includes(definition.progressUnit)) {
    throw new Error(`category '${definition.id}': progressUnit must be one of ${PROGRESS_UNITS.join(', ')}`);
  }
  for (const field of Object.keys(definition.fields ?? {})) {
    if (COMMON_FIELD_NAMES.includes(field) || !FIELD_NAME.test(field)) {
      throw new Error(`category '${definition.id}': field name '${field}' is reserved or invalid`);
    }
  }
  for (const [status, label] of Object.entries(statusLabelsOf(definition))) {
    if (typeof label !== 'string' || !label.trim() || label.length > 50) {
      throw new Error(`category '${definition.id}': status label of '${status}' must be 1–50 characters`);
    }
  }
  for (const field of definition.personFields ?? []) {
    if (!(field in (definition.fields ?? {}))) throw new Error(`category '${definition.id}': person field '${field}' is not one of its fields`);
  }
  for (const field of Object.values(definition.episodic ?? {})) {
    if (!(field in (definition.fields ?? {}))) throw new Error(`category '${definition.id}': episode count field '${field}' is not one of its fields`);
  }
  for (const key of Object.keys(definition.externalIds ?? {})) {
    if (!EXTERNAL_KEY.test(key)) throw new Error(`category '${definition.id}': external id key '${key}' is invalid`);
  }
}
