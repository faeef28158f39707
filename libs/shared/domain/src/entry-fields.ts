/**
 * How a catalog entry's fields are validated, as plain data: the catalog service builds its request
 * schemas from these rules, the importers check file values against them before sending them.
 */
export type FieldRule =
  | { readonly kind: 'integer'; readonly min: number; readonly max: number; readonly description: string; readonly example?: number }
  | {
      readonly kind: 'text';
      readonly maxLength: number;
      readonly description: string;
      readonly example?: string;
      /** Line breaks are part of the value (a description); otherwise whitespace runs are one space. */
      readonly multiLine?: boolean;
    }
  | { readonly kind: 'list'; readonly maxItems: number; readonly maxLength: number; readonly description: string; readonly example?: readonly string[] }
  | { readonly kind: 'isbn'; readonly description: string; readonly example?: string };

/** Limits of the fields every entry has, and of a list entry's own values. */
export const ENTRY_LIMITS = {
  titleMaxLength: 300,
  year: { min: 1870, max: 2100 },
  notesMaxLength: 2000,
  score: { min: 1, max: 10 },
} as const;

/** The fields every category has besides title, year and external ids. */
export const COMMON_FIELD_RULES: Readonly<Record<'description' | 'genres', FieldRule>> = {
  description: { kind: 'text', maxLength: 5000, multiLine: true, description: 'Description' },
  genres: { kind: 'list', maxItems: 20, maxLength: 50, description: 'Genres', example: ['Science Fiction', 'Action'] },
};

/** Fields every entry has; a category's own field may not reuse these names. */
export const COMMON_FIELD_NAMES: readonly string[] = [
  'id',
  'title',
  'year',
  'description',
  'genres',
  'external_ids',
  'poster_url',
  'poster',
  'created_by',
  'created_at',
  'updated_at',
];
