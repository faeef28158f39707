import { ENTRY_LIMITS, isbn13Of, normaliseIsbn, type FieldRule } from '@mt/domain';
import {
  failedRow,
  type Category,
  type ImportEntry,
  type ImportItem,
  type ImportPlay,
  type ImportRow,
} from '../model';
import { externalIdsOf, type ExternalIdCandidate } from './external-ids';
import { itemFieldRules } from './item-fields';
import { RowPlays } from './plays';
import { multiLine, singleLine, wholeNumber } from './text';

/** A row's catalog side as a source reads it, before validation. */
export interface RawItem {
  readonly title: string | null | undefined;
  readonly year: string | number | null | undefined;
  readonly externalIds: Readonly<Partial<Record<string, ExternalIdCandidate>>>;
  /** Other item fields the source knows (description, genres, the category's own); null = known to be empty. */
  readonly fields?: Readonly<Record<string, unknown>>;
  /**
   * Our own exports: text only trimmed, as the catalog itself stores it, so a round trip gives back exactly
   * what was exported. Other sources get titles and names on one line with single spaces.
   */
  readonly verbatim?: boolean;
}

const trimmed = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** A value as quoted in a warning: one line, at most 40 characters. */
const shown = (value: unknown): string => String(value).replace(/\s+/g, ' ').slice(0, 40);

function integerValue(value: unknown, rule: { min: number; max: number }): number | undefined {
  const number = typeof value === 'string' || typeof value === 'number' ? wholeNumber(value) : undefined;
  return number !== undefined && number >= rule.min && number <= rule.max ? number : undefined;
}

function textValue(
  value: unknown,
  rule: { maxLength: number; multiLine?: boolean },
  verbatim: boolean,
): string | null | undefined {
  if (typeof value !== 'string') return undefined;
  const text = verbatim ? trimmed(value) : rule.multiLine ? multiLine(value) : singleLine(value);
  return text !== null && text.length > rule.maxLength ? undefined : text;
}

function listValue(
  field: string,
  value: unknown,
  rule: { maxItems: number; maxLength: number },
  warnings: string[],
  verbatim: boolean,
): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: string[] = [];
  for (const element of value) {
    const text = typeof element !== 'string' ? null : verbatim ? trimmed(element) : singleLine(element);
    if (text === null) continue;
    if (text.length > rule.maxLength)
      warnings.push(
        `${field}: '${shown(text)}…' is longer than ${rule.maxLength} characters and was dropped`,
      );
    else if (verbatim || !items.includes(text)) items.push(text);
  }
  if (items.length > rule.maxItems) {
    warnings.push(`${field}: only the first ${rule.maxItems} of ${items.length} were kept`);
    return items.slice(0, rule.maxItems);
  }
  return items;
}

/** The field's valid value, null for known-empty, or undefined (dropped with a warning) when invalid. */
function fieldValue(
  field: string,
  value: unknown,
  rule: FieldRule,
  warnings: string[],
  verbatim: boolean,
): unknown {
  if (value === null || value === '') return rule.kind === 'list' ? [] : null;
  let result: unknown;
  if (rule.kind === 'integer') result = integerValue(value, rule);
  else if (rule.kind === 'text') result = textValue(value, rule, verbatim);
  else if (rule.kind === 'list') result = listValue(field, value, rule, warnings, verbatim);
  else result = typeof value === 'string' ? normaliseIsbn(value.trim()) : undefined;
  if (result === undefined && rule.kind !== 'list')
    warnings.push(`${field} '${shown(value)}' is not valid and was dropped`);
  return result;
}

function itemOf(category: Category, raw: RawItem, warnings: string[]): ImportItem | string {
  const verbatim = raw.verbatim === true;
  const title = typeof raw.title !== 'string' ? null : verbatim ? trimmed(raw.title) : singleLine(raw.title);
  if (title !== null && title.length > ENTRY_LIMITS.titleMaxLength)
    return `the title is longer than ${ENTRY_LIMITS.titleMaxLength} characters`;

  let year: number | null = null;
  if (raw.year !== null && raw.year !== undefined && String(raw.year).trim() !== '') {
    year = integerValue(raw.year, ENTRY_LIMITS.year) ?? null;
    if (year === null)
      warnings.push(
        `year '${shown(raw.year)}' is not a year between ${ENTRY_LIMITS.year.min} and ${ENTRY_LIMITS.year.max} and was dropped`,
      );
  }

  const item: ImportItem = { title, year, external_ids: externalIdsOf(category, raw.externalIds, warnings) };
  const fields = raw.fields ?? {};
  for (const [field, rule] of itemFieldRules(category)) {
    if (!(field in fields)) continue;
    const value = fieldValue(field, fields[field], rule, warnings, verbatim);
    if (value !== undefined) (item as unknown as Record<string, unknown>)[field] = value;
  }
  // A book's isbn13 follows from its ISBN (it is derived, read-only); the row can be matched by it.
  if (typeof item.isbn === 'string' && item.external_ids.isbn13 === undefined)
    item.external_ids.isbn13 = isbn13Of(item.isbn) ?? undefined;
  if (title === null && Object.keys(item.external_ids).length === 0)
    return 'the row has neither a title nor an external id';
  return item;
}

function checkedEntry(entry: ImportEntry, warnings: string[]): ImportEntry {
  const checked = { ...entry };
  if (checked.notes !== null && checked.notes.length > ENTRY_LIMITS.notesMaxLength) {
    warnings.push(`notes were shortened to ${ENTRY_LIMITS.notesMaxLength} characters`);
    // Never leave half of a surrogate pair at the cut.
    checked.notes = checked.notes.slice(0, ENTRY_LIMITS.notesMaxLength).replace(/[\uD800-\uDBFF]$/, '');
  }
  if (
    checked.started_at !== null &&
    checked.finished_at !== null &&
    checked.finished_at < checked.started_at
  ) {
    warnings.push(
      `started_at ${checked.started_at} is after finished_at ${checked.finished_at} and was dropped`,
    );
    checked.started_at = null;
  }
  return checked;
}

/**
 * The finished row: item validated by the catalog's field and external-id rules, entry by the list's, plays
 * within their limit; `warnings` collected by the source are kept.
 */
export function completeRow(
  row: number,
  category: Category,
  raw: RawItem,
  entry: ImportEntry | null,
  warnings: string[] = [],
  plays: RowPlays | readonly ImportPlay[] = [],
): ImportRow {
  const item = itemOf(category, raw, warnings);
  if (typeof item === 'string') return failedRow(row, item);
  if (plays instanceof RowPlays && plays.overLimit) return failedRow(row, plays.overLimit);
  const played = plays instanceof RowPlays ? plays.plays : [...plays];
  return { row, ok: true, item, entry: entry && checkedEntry(entry, warnings), plays: played, warnings };
}

/** An entry with every field empty but the status. */
export const entryWith = (status: ImportEntry['status'], fields: Partial<ImportEntry> = {}): ImportEntry => ({
  status,
  score: null,
  progress: null,
  notes: null,
  started_at: null,
  finished_at: null,
  ...fields,
});
