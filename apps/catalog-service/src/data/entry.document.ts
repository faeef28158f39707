import { mongo } from 'mongoose';
import { externalIdKeys, type CategoryDefinition } from '../domain/categories';
import { externalKeysOf, resolveExternalIds, genreKey, titleKey, titleSearchKeys } from '@mt/domain';
import type { EntryFieldsInput } from '../domain/catalog-query';

/**
 * A catalog entry as stored. Besides what the client sees it keeps derived keys, written together with
 * the field they derive from:
 * - `title_key`: folded title (duplicate detection with `year`, and the title sort);
 * - `title_words` / `title_prefixes`: folded title words and all their prefixes (indexed search), bounded
 *   whatever the title (SEARCH_LIMITS);
 * - `year_missing`: 1 when `year` is null, so entries without a year sort last in both orders;
 * - `genre_keys`: lower-cased genres for the case-insensitive genre filter;
 * - `person_prefixes`: folded word prefixes of the category's person fields (`person=`), bounded like titles;
 * - `external_keys`: the `external_ids` pairs as `key:value` strings, under a unique multikey index (one entry
 *   per pair in a category). Absent, never `[]`, when there are none: a unique index counts an empty array as
 *   a value, and the index is partial on its existence.
 */
export interface EntryDocument {
  _id: mongo.ObjectId;
  title: string;
  title_key: string;
  title_words: string[];
  title_prefixes: string[];
  year: number | null;
  year_missing: 0 | 1;
  description: string | null;
  genres: string[];
  genre_keys: string[];
  /** Absent on entries written before person search existed until the start-up backfill. */
  person_prefixes?: string[];
  /** The category's own fields. */
  own: Record<string, unknown>;
  /** Absent on entries written before external ids existed (see `storedExternalIds`). */
  external_ids?: Record<string, string>;
  external_keys?: string[];
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  /**
   * Bumped by every list addition of the entry, in the addition's transaction: a write (a read would not
   * conflict) so that a moderator's removal or merge racing the addition conflicts with it and one of them
   * runs again. Never shown.
   */
  list_claims?: number;
}

export function titleFields(title: string) {
  const { words, prefixes } = titleSearchKeys(title);
  return { title, title_key: titleKey(title), title_words: words, title_prefixes: prefixes };
}

/** The searchable text of the person fields (list fields joined), folded and bounded like a title. */
export function personPrefixes(category: CategoryDefinition, own: Readonly<Record<string, unknown>>): string[] {
  const texts = (category.personFields ?? []).flatMap((name) => {
    const value = own[name];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : [];
  });
  return texts.length ? titleSearchKeys(texts.join(' \n ')).prefixes : [];
}

export const yearFields = (year: number | null) => ({ year, year_missing: (year === null ? 1 : 0) as 0 | 1 });

export const genreFields = (genres: string[]) => ({ genres, genre_keys: [...new Set(genres.map(genreKey))] });

export function newEntryDocument(
  category: CategoryDefinition,
  input: EntryFieldsInput & { title: string },
  createdBy: string | null,
  now: Date,
): EntryDocument {
  const own: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(category.fields)) {
    own[name] = input[name] ?? (field.kind === 'list' ? [] : null);
  }
  const externalIds = resolveExternalIds(externalIdKeys(category), {}, input.external_ids, own);
  const keys = externalKeysOf(externalIds);
  return {
    _id: new mongo.ObjectId(),
    ...titleFields(input.title),
    ...yearFields(input.year ?? null),
    description: input.description ?? null,
    ...genreFields(input.genres ?? []),
    person_prefixes: personPrefixes(category, own),
    own,
    external_ids: externalIds,
    ...(keys.length ? { external_keys: keys } : {}),
    created_by: createdBy,
    created_at: now,
    updated_at: now,
  };
}

/**
 * The external ids an entry has: stored ones, else (an entry from before external ids existed, not yet
 * migrated) the derived keys computed from its own fields. Read shim of migrations/001-external-ids.ts:
 * removable after 1.0.0, with the step.
 */
export function storedExternalIds(category: CategoryDefinition, doc: Pick<EntryDocument, 'external_ids' | 'own'>): Record<string, string> {
  return doc.external_ids ?? resolveExternalIds(externalIdKeys(category), {}, undefined, doc.own ?? {});
}

/** Whether applying `patch` needs the entry as it is now (external ids are recomputed from it). */
export function patchNeedsCurrent(category: CategoryDefinition, patch: EntryFieldsInput): boolean {
  if (patch.external_ids !== undefined) return true;
  if ((category.personFields ?? []).some((name) => patch[name] !== undefined)) return true;
  const derives = Object.values(externalIdKeys(category)).some((key) => key.derive);
  return derives && Object.keys(category.fields).some((name) => patch[name] !== undefined);
}

/** A change of one entry: `$set`, `$unset`, and the state it was computed from (a concurrent change makes it retry). */
export interface EntryChange {
  set: Record<string, unknown>;
  unset: string[];
  /** When given: apply only if the entry is still as read (same `updated_at` and `external_keys`, null: none). */
  expect?: { updatedAt: Date; externalKeys: string[] | null };
}

/** The change a patch makes: the given fields, their derived keys, `updated_at`, and external ids when affected. */
export function entryPatchChange(category: CategoryDefinition, patch: EntryFieldsInput, now: Date, current: EntryDocument | null): EntryChange {
  const set: Record<string, unknown> = { updated_at: now };
  const unset: string[] = [];
  if (patch.title !== undefined) Object.assign(set, titleFields(patch.title));
  if (patch.year !== undefined) Object.assign(set, yearFields(patch.year));
  if (patch.description !== undefined) set['description'] = patch.description;
  if (patch.genres !== undefined) Object.assign(set, genreFields(patch.genres));
  for (const name of Object.keys(category.fields)) {
    if (patch[name] !== undefined) set[`own.${name}`] = patch[name];
  }
  if (!current) return { set, unset };
  const own = { ...current.own };
  for (const name of Object.keys(category.fields)) if (patch[name] !== undefined) own[name] = patch[name];
  set['person_prefixes'] = personPrefixes(category, own);
  const externalIds = resolveExternalIds(externalIdKeys(category), storedExternalIds(category, current), patch.external_ids, own);
  const keys = externalKeysOf(externalIds);
  set['external_ids'] = externalIds;
  if (keys.length) set['external_keys'] = keys;
  else unset.push('external_keys');
  return { set, unset, expect: { updatedAt: current.updated_at, externalKeys: current.external_keys ?? null } };
}

/** The stored fields a response is made of (`toEntryResponse`): the entry without its derived keys. */
export type EntryResponseSource = Pick<
  EntryDocument,
  '_id' | 'title' | 'year' | 'description' | 'genres' | 'own' | 'external_ids' | 'created_by' | 'created_at' | 'updated_at'
>;

/** A row of a catalog page: what its response shows, and the sort keys its cursor position is taken from. */
export type EntryListingRow = EntryResponseSource & Pick<EntryDocument, 'title_key' | 'year_missing'>;

/**
 * Catalog pages read only what a row shows and where a cursor resumes: the search keys (title and person
 * prefixes above all) are most of a stored entry's bytes, and decoding them was the largest cost of a page.
 * An exclusion, so a field added to responses later is never silently left out.
 */
export const ENTRY_LISTING_PROJECTION: Readonly<Record<Exclude<keyof EntryDocument, keyof EntryListingRow>, 0>> = {
  title_words: 0,
  title_prefixes: 0,
  genre_keys: 0,
  person_prefixes: 0,
  external_keys: 0,
  list_claims: 0,
};

/** Reads only what a response shows (exports): a listing row without its sort keys. */
export const ENTRY_RESPONSE_PROJECTION: Readonly<Record<Exclude<keyof EntryDocument, keyof EntryResponseSource>, 0>> = {
  ...ENTRY_LISTING_PROJECTION,
  title_key: 0,
  year_missing: 0,
};

/** What clients see: common fields, then the category's own fields in definition order. */
export function toEntryResponse(category: CategoryDefinition, doc: EntryResponseSource): Record<string, unknown> {
  const response: Record<string, unknown> = {
    id: doc._id.toHexString(),
    title: doc.title,
    year: doc.year,
    description: doc.description,
    genres: doc.genres,
    external_ids: storedExternalIds(category, doc),
    created_by: doc.created_by,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
  for (const [name, field] of Object.entries(category.fields)) {
    response[name] = doc.own?.[name] ?? (field.kind === 'list' ? [] : null);
  }
  return response;
}
