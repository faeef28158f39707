import type { CategoryRecord } from '@mt/contracts';
import type { Endpoint } from '@mt/endpoints';
import { integerField, isbnField, textField, textListField, type CategoryField } from './category-fields';
import { DEFAULT_STATUS_LABELS, PROGRESS_UNITS, GOODREADS_ID, IMDB_ID, ISBN13_ID, OPENLIBRARY_ID, TMDB_ID, TVDB_ID, type ExternalIdKey, type ProgressUnit, type StatusLabels } from '@mt/domain';

/** Everything that makes one category different from another. */
export interface CategoryDefinition {
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
  readonly fields: Readonly<Record<string, CategoryField>>;
  /**
   * Keys of `external_ids` and the format of their values; a key not listed is a 400. A
   * `(key, value)` pair belongs to at most one entry of the category (a unique index).
   */
  readonly externalIds?: Readonly<Record<string, ExternalIdKey>>;
  /**
   * Own fields searched by `person=` (movies: director, tvshows: network, books: authors), folded and
   * matched by words and word prefixes like titles.
   */
  readonly personFields?: readonly string[];
  /** Default port of an instance when PORT is not set. */
  readonly defaultPort: number;
  /**
   * Endpoints of this category beyond the shared catalog and list ones (paths under /api/v1/<id>). They are
   * routed, documented and scope-checked like the others, with no change anywhere else.
   */
  readonly endpoints?: (context: CategoryContext) => Endpoint[];
}

/**
 * What a category's own endpoints are handed: the definition and reads of the shared catalog, declared
 * here so a category depends on this narrow shape and never on the service's wiring.
 */
export interface CategoryContext {
  readonly category: CategoryDefinition;
  readonly catalog: {
    /** One entry as the API answers it; a 404 when there is none. */
    get(id: string): Promise<Record<string, unknown>>;
  };
}

/**
 * The shipped categories. A new category is one more entry here (and nothing else): its routes, schemas,
 * OpenAPI components, database and registration all derive from it.
 */
const DEFINITIONS: readonly CategoryDefinition[] = [
  {
    id: 'movies',
    displayName: 'Movies',
    description: 'Feature films, documentaries and shorts',
    icon: 'film',
    progressUnit: 'minutes',
    statusLabels: { watching: 'Watching', completed: 'Watched', on_hold: 'On hold', dropped: 'Dropped', plan_to_watch: 'Want to watch' },
    defaultPort: 3011,
    fields: {
      runtime_minutes: integerField(1, 10000, 'Running time in minutes', 136),
      director: textField(200, 'Director', 'Lana Wachowski'),
    },
    externalIds: { imdb: IMDB_ID, tmdb: TMDB_ID },
    personFields: ['director'],
  },
  {
    id: 'tvshows',
    displayName: 'TV Shows',
    description: 'Television series and miniseries',
    icon: 'tv',
    progressUnit: 'episodes',
    statusLabels: { watching: 'Watching', completed: 'Completed', on_hold: 'On hold', dropped: 'Dropped', plan_to_watch: 'Plan to watch' },
    defaultPort: 3012,
    fields: {
      seasons: integerField(0, 1000, 'Number of seasons', 5),
      episodes: integerField(0, 100000, 'Number of episodes', 62),
      network: textField(200, 'Original network or platform', 'AMC'),
    },
    externalIds: { imdb: { ...IMDB_ID, example: 'tt0903747' }, tmdb: { ...TMDB_ID, example: '1396' }, tvdb: TVDB_ID },
    personFields: ['network'],
  },
  {
    id: 'books',
    displayName: 'Books',
    description: 'Novels, non-fiction and comics',
    icon: 'book',
    progressUnit: 'pages',
    statusLabels: { watching: 'Reading', completed: 'Read', on_hold: 'On hold', dropped: 'Abandoned', plan_to_watch: 'Want to read' },
    defaultPort: 3013,
    fields: {
      authors: textListField(20, 200, 'Authors', ['Ursula K. Le Guin']),
      isbn: isbnField('ISBN', '978-0-441-47812-5'),
      pages: integerField(1, 100000, 'Number of pages', 304),
    },
    externalIds: { isbn13: ISBN13_ID, openlibrary: OPENLIBRARY_ID, goodreads: GOODREADS_ID },
    personFields: ['authors'],
  },
];

/** The category's external id keys ({} when it declares none). */
export const externalIdKeys = (category: CategoryDefinition): Readonly<Record<string, ExternalIdKey>> => category.externalIds ?? {};

/** Fields every entry has; a category's own field may not reuse these names. */
const COMMON_FIELDS = new Set(['id', 'title', 'year', 'description', 'genres', 'external_ids', 'created_by', 'created_at', 'updated_at']);
const EXTERNAL_KEY = /^[a-z][a-z0-9_]{0,31}$/;
const CATEGORY_ID = /^[a-z][a-z0-9-]{0,31}$/;
const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;

function addChecked(byId: Map<string, CategoryDefinition>, definitions: readonly CategoryDefinition[]): void {
  for (const definition of definitions) {
    // A mistake here is a programming error: fail at module load, never at request time.
    if (!CATEGORY_ID.test(definition.id)) throw new Error(`category id '${definition.id}' is not a valid URL segment`);
    if (byId.has(definition.id)) throw new Error(`category '${definition.id}' is defined twice`);
    if (!PROGRESS_UNITS.includes(definition.progressUnit)) throw new Error(`category '${definition.id}': progressUnit must be one of ${PROGRESS_UNITS.join(', ')}`);
    for (const field of Object.keys(definition.fields ?? {})) {
      if (COMMON_FIELDS.has(field) || !FIELD_NAME.test(field)) {
        throw new Error(`category '${definition.id}': field name '${field}' is reserved or invalid`);
      }
    }
    for (const [status, label] of Object.entries(definition.statusLabels ?? DEFAULT_STATUS_LABELS)) {
      if (typeof label !== 'string' || !label.trim() || label.length > 50) throw new Error(`category '${definition.id}': status label of '${status}' must be 1–50 characters`);
    }
    for (const field of definition.personFields ?? []) {
      if (!(field in (definition.fields ?? {}))) throw new Error(`category '${definition.id}': person field '${field}' is not one of its fields`);
    }
    for (const key of Object.keys(definition.externalIds ?? {})) {
      if (!EXTERNAL_KEY.test(key)) throw new Error(`category '${definition.id}': external id key '${key}' is invalid`);
    }
    byId.set(definition.id, definition);
  }
}

const CATEGORIES = new Map<string, CategoryDefinition>();
addChecked(CATEGORIES, DEFINITIONS);

/** The shipped categories' ids, sorted. */
export const CATEGORY_IDS: readonly string[] = [...CATEGORIES.keys()].sort();

/** Valid CATEGORY values, sorted: the shipped ones and those loaded from a category module. */
export const knownCategoryIds = (): string[] => [...CATEGORIES.keys()].sort();

/**
 * Adds the categories a CommonJS module exports (`module.exports = [definition, ...]`): how a deployment
 * (or a test) runs a category of its own, with its own endpoints, without changing this code or the gateway's.
 * Checked like the shipped ones; a mistake fails the start-up.
 */
export function loadCategoryModule(modulePath: string): string[] {
  // Catalogs hosted in one process (single-process mode) may name the same module: it is one set of definitions.
  const resolved = require.resolve(modulePath);
  const loaded = LOADED_MODULES.get(resolved);
  if (loaded) return [...loaded];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module is named by configuration
  const exported: unknown = require(resolved);
  const definitions = (Array.isArray(exported) ? exported : [exported]) as CategoryDefinition[];
  addChecked(CATEGORIES, definitions.map((definition) => ({ ...definition, fields: definition.fields ?? {} })));
  const ids = definitions.map((definition) => definition.id);
  LOADED_MODULES.set(resolved, ids);
  return [...ids];
}

/** Category modules loaded so far, by resolved path, with the ids they added. */
const LOADED_MODULES = new Map<string, readonly string[]>();

export function getCategory(id: string): CategoryDefinition {
  const category = CATEGORIES.get(id);
  if (!category) throw new Error(`unknown category '${id}' (valid: ${CATEGORY_IDS.join(', ')})`);
  return category;
}

/** The public path prefix of a category's routes. */
export const categoryBasePath = (category: CategoryDefinition): string => `/api/v1/${category.id}`;

/** The record published by GET /api/v1/categories. */
export function categoryRecord(category: CategoryDefinition): CategoryRecord {
  return {
    id: category.id,
    name: category.id,
    display_name: category.displayName,
    description: category.description,
    endpoint: categoryBasePath(category),
    icon: category.icon,
    progress_unit: category.progressUnit,
    status_labels: { ...(category.statusLabels ?? DEFAULT_STATUS_LABELS) },
  };
}

/**
 * Prefix of the category's OpenAPI component names, so several categories merge without clashes:
 * the display name's letters and digits (`TV Shows` → `TVShows`), else the id in PascalCase.
 */
export function componentPrefix(category: CategoryDefinition): string {
  const fromName = category.displayName.replace(/[^A-Za-z0-9]/g, '');
  if (/^[A-Z][A-Za-z0-9]*$/.test(fromName)) return fromName;
  return category.id
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
