import type { Category } from '../model';

/** How a catalog field is validated (API.md §5); the catalog service applies the same rules. */
export type FieldRule =
  | { readonly kind: 'integer'; readonly min: number; readonly max: number }
  | { readonly kind: 'text'; readonly maxLength: number; readonly multiLine?: boolean }
  | { readonly kind: 'list'; readonly maxItems: number; readonly maxLength: number }
  | { readonly kind: 'isbn' };

export const TITLE_MAX_LENGTH = 300;
export const YEAR_RANGE = { min: 1870, max: 2100 } as const;
export const NOTES_MAX_LENGTH = 2000;

/** The fields every category has besides title, year and external ids. */
export const COMMON_FIELD_RULES: Readonly<Record<string, FieldRule>> = {
  description: { kind: 'text', maxLength: 5000, multiLine: true },
  genres: { kind: 'list', maxItems: 20, maxLength: 50 },
};

/** Each category's own fields, in the order of API.md §5. */
export const CATEGORY_FIELD_RULES: Readonly<Record<Category, Readonly<Record<string, FieldRule>>>> = {
  movies: {
    runtime_minutes: { kind: 'integer', min: 1, max: 10000 },
    director: { kind: 'text', maxLength: 200 },
  },
  tvshows: {
    seasons: { kind: 'integer', min: 0, max: 1000 },
    episodes: { kind: 'integer', min: 0, max: 100000 },
    network: { kind: 'text', maxLength: 200 },
  },
  books: {
    authors: { kind: 'list', maxItems: 20, maxLength: 200 },
    isbn: { kind: 'isbn' },
    pages: { kind: 'integer', min: 1, max: 100000 },
  },
};

/** Every item field of a category but title and year, common ones first. */
export function itemFieldRules(category: Category): ReadonlyArray<readonly [string, FieldRule]> {
  return [...Object.entries(COMMON_FIELD_RULES), ...Object.entries(CATEGORY_FIELD_RULES[category])];
}
