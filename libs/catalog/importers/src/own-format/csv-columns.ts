import { CATEGORIES, type Category } from '../model';
import { externalIdNames } from '../normalise/external-ids';
import { COMMON_FIELD_RULES, mediaCategory, type FieldRule } from '@mt/domain';

/** The list columns of this API's CSV export, after the catalog columns. */
export const LIST_COLUMNS = [
  'status',
  'score',
  'progress',
  'notes',
  'started_at',
  'finished_at',
  'created_at',
  'updated_at',
] as const;

export const EXTERNAL_ID_COLUMN_PREFIX = 'external_ids.';

/** A catalog column of the CSV export: an item field, or one external id. */
export type CatalogColumn =
  | {
      readonly name: string;
      readonly kind: 'field';
      readonly field: string;
      readonly rule: FieldRule | 'year' | 'text';
    }
  | { readonly name: string; readonly kind: 'external_id'; readonly key: string };

/**
 * The catalog fields flattened: item_id, title, year, description, genres, the category's own fields, then
 * one `external_ids.<key>` column per external id key of the category — the same columns for every file of a category, whether or
 * not a value is set, so a spreadsheet of two exports lines up.
 */
export function catalogColumns(category: Category): CatalogColumn[] {
  return [
    { name: 'item_id', kind: 'field', field: 'id', rule: 'text' },
    { name: 'title', kind: 'field', field: 'title', rule: 'text' },
    { name: 'year', kind: 'field', field: 'year', rule: 'year' },
    ...Object.entries({ ...COMMON_FIELD_RULES, ...mediaCategory(category).fields }).map(
      ([field, rule]): CatalogColumn => ({ name: field, kind: 'field', field, rule }),
    ),
    ...externalIdNames(category).map((key): CatalogColumn => ({
      name: `${EXTERNAL_ID_COLUMN_PREFIX}${key}`,
      kind: 'external_id',
      key,
    })),
  ];
}

export const csvHeader = (category: Category): string[] => [
  ...catalogColumns(category).map((column) => column.name),
  ...LIST_COLUMNS,
];

/**
 * Several values in one cell: `Drama; Crime`. A `;` or `\` inside a value is escaped with `\`, so every
 * list survives the round trip, while ordinary lists stay readable in a spreadsheet.
 */
export function joinList(values: readonly string[]): string {
  return values.map((value) => value.replace(/[\\;]/g, (char) => `\\${char}`)).join('; ');
}

export function splitList(cell: string): string[] {
  const values: string[] = [];
  let current = '';
  for (let i = 0; i < cell.length; i++) {
    const char = cell.charAt(i);
    if (char === '\\' && i + 1 < cell.length) current += cell.charAt(++i);
    else if (char === ';') {
      values.push(current);
      current = '';
    } else current += char;
  }
  values.push(current);
  return values.map((value) => value.trim()).filter((value) => value !== '');
}

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab or CR) as a formula: such text cells are
 * written with a leading apostrophe, which spreadsheets show as text and the import removes again.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export const guardFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

export const unguardFormula = (cell: string): string =>
  cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;

/** Columns that only another category has: a file with them is another category's export. */
export function foreignColumns(category: Category): Map<string, Category> {
  const own = new Set(csvHeader(category));
  const foreign = new Map<string, Category>();
  for (const other of CATEGORIES) {
    if (other === category) continue;
    for (const name of csvHeader(other)) if (!own.has(name) && !foreign.has(name)) foreign.set(name, other);
  }
  return foreign;
}
