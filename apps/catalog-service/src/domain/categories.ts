import type { CategoryRecord, Page } from '@mt/contracts';
import type { ListQuery } from './list-entry';
import type { Endpoint } from '@mt/endpoints';
import { fieldFromRule, type CategoryField } from './category-fields';
import { assertValidCategory, DEFAULT_STATUS_LABELS, MEDIA_CATEGORIES, type MediaCategory } from '@mt/domain';

/**
 * Everything that makes one category different from another: the facts @mt/domain declares, with each
 * field's request and response schemas, and the category's own endpoints.
 */
export interface CategoryDefinition extends MediaCategory<CategoryField> {
  /**
   * Endpoints of this category beyond the shared catalog and list ones (paths under /api/v1/<id>). They are
   * routed, documented and scope-checked like the others, with no change anywhere else.
   */
  readonly endpoints?: (context: CategoryContext) => Endpoint[];
}

/**
 * What a category's own endpoints are handed: the definition, reads of the shared catalog and of the
 * caller's list, declared here so a category depends on this narrow shape and never on the service's wiring.
 */
export interface CategoryContext {
  readonly category: CategoryDefinition;
  readonly catalog: {
    /** One entry as the API answers it; a 404 when there is none. */
    get(id: string): Promise<Record<string, unknown>>;
  };
  readonly lists: {
    /** One page of a user's list as `GET /<category>/list` answers it (`total` counts the whole list). */
    page(userId: string, query: ListQuery): Promise<Page<unknown>>;
  };
}

/**
 * The shipped categories, declared once in @mt/domain (the importers, the CLI and the web app read the same
 * facts): here each plain field rule becomes its request and response schemas.
 */
const DEFINITIONS: readonly CategoryDefinition[] = MEDIA_CATEGORIES.map(
  (category): CategoryDefinition => ({
    ...category,
    fields: Object.fromEntries(Object.entries(category.fields).map(([name, rule]) => [name, fieldFromRule(rule)])),
  }),
);

/** The category's external id keys ({} when it declares none): the library's rule. */
export { externalIdKeys } from '@mt/domain';

function addChecked(byId: Map<string, CategoryDefinition>, definitions: readonly CategoryDefinition[]): void {
  for (const definition of definitions) {
    // A mistake here is a programming error: fail at module load, never at request time.
    assertValidCategory(definition);
    if (byId.has(definition.id)) throw new Error(`category '${definition.id}' is defined twice`);
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

/** The record published by GET /api/v1/categories, with the metadata providers configured for it. */
export function categoryRecord(category: CategoryDefinition, providers: readonly string[] = []): CategoryRecord {
  return {
    id: category.id,
    name: category.id,
    display_name: category.displayName,
    description: category.description,
    endpoint: categoryBasePath(category),
    icon: category.icon,
    progress_unit: category.progressUnit,
    status_labels: { ...(category.statusLabels ?? DEFAULT_STATUS_LABELS) },
    providers: [...providers],
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
