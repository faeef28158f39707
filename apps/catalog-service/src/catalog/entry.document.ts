import { mongo } from 'mongoose';
import type { CategoryDefinition } from '../categories/categories';
import { genreKey, titleKey, titleSearchKeys } from '../search/text-folding';
import type { EntryFieldsInput } from './catalog.schemas';

/**
 * A catalog entry as stored. Besides what the client sees it keeps derived keys, written together with
 * the field they derive from:
 * - `title_key`: folded title (duplicate detection with `year`, and the title sort);
 * - `title_words` / `title_prefixes`: folded title words and all their prefixes (indexed search), bounded
 *   whatever the title (SEARCH_LIMITS);
 * - `year_missing`: 1 when `year` is null, so entries without a year sort last in both orders;
 * - `genre_keys`: lower-cased genres for the case-insensitive genre filter.
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
  /** The category's own fields. */
  own: Record<string, unknown>;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export function titleFields(title: string) {
  const { words, prefixes } = titleSearchKeys(title);
  return { title, title_key: titleKey(title), title_words: words, title_prefixes: prefixes };
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
  return {
    _id: new mongo.ObjectId(),
    ...titleFields(input.title),
    ...yearFields(input.year ?? null),
    description: input.description ?? null,
    ...genreFields(input.genres ?? []),
    own,
    created_by: createdBy,
    created_at: now,
    updated_at: now,
  };
}

/** The `$set` of a patch: the given fields, their derived keys, and `updated_at`. */
export function entryPatchSet(category: CategoryDefinition, patch: EntryFieldsInput, now: Date): Record<string, unknown> {
  const set: Record<string, unknown> = { updated_at: now };
  if (patch.title !== undefined) Object.assign(set, titleFields(patch.title));
  if (patch.year !== undefined) Object.assign(set, yearFields(patch.year));
  if (patch.description !== undefined) set['description'] = patch.description;
  if (patch.genres !== undefined) Object.assign(set, genreFields(patch.genres));
  for (const name of Object.keys(category.fields)) {
    if (patch[name] !== undefined) set[`own.${name}`] = patch[name];
  }
  return set;
}

/** What clients see (API.md §5): common fields, then the category's own fields in definition order. */
export function toEntryResponse(category: CategoryDefinition, doc: EntryDocument): Record<string, unknown> {
  const response: Record<string, unknown> = {
    id: doc._id.toHexString(),
    title: doc.title,
    year: doc.year,
    description: doc.description,
    genres: doc.genres,
    created_by: doc.created_by,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
  for (const [name, field] of Object.entries(category.fields)) {
    response[name] = doc.own?.[name] ?? (field.kind === 'list' ? [] : null);
  }
  return response;
}
