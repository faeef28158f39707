import { newId } from './ids';
import { externalIdKeys, type CategoryDefinition } from './categories';
import { externalKeysOf, resolveExternalIds, genreKey, titleKey, titleSearchKeys } from '@mt/domain';
import type { EntryFieldsInput } from './catalog-query';
import { posterPath, type ImageSources } from '@mt/providers';
import type { EntryChange, EntryDocument, EntryResponseSource } from './records/catalog-entry.record';

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
    _id: newId(),
    ...titleFields(input.title),
    ...yearFields(input.year ?? null),
    description: input.description ?? null,
    ...genreFields(input.genres ?? []),
    person_prefixes: personPrefixes(category, own),
    own,
    external_ids: externalIds,
    ...(keys.length ? { external_keys: keys } : {}),
    poster_url: input.poster_url ?? null,
    created_by: createdBy,
    created_at: now,
    updated_at: now,
  };
}

/** The external ids an entry's own fields give (books: `isbn13` from `isbn`). */
export function derivedExternalIds(category: CategoryDefinition, own: Readonly<Record<string, unknown>>): Record<string, string> {
  return resolveExternalIds(externalIdKeys(category), {}, undefined, own);
}

/** Whether applying `patch` needs the entry as it is now (external ids are recomputed from it). */
export function patchNeedsCurrent(category: CategoryDefinition, patch: EntryFieldsInput): boolean {
  if (patch.external_ids !== undefined) return true;
  if ((category.personFields ?? []).some((name) => patch[name] !== undefined)) return true;
  const derives = Object.values(externalIdKeys(category)).some((key) => key.derive);
  return derives && Object.keys(category.fields).some((name) => patch[name] !== undefined);
}

/** The change a patch makes: the given fields, their derived keys, `updated_at`, and external ids when affected. */
export function entryPatchChange(category: CategoryDefinition, patch: EntryFieldsInput, now: Date, current: EntryDocument | null): EntryChange {
  const set: Record<string, unknown> = { updated_at: now };
  const unset: string[] = [];
  if (patch.title !== undefined) Object.assign(set, titleFields(patch.title));
  if (patch.year !== undefined) Object.assign(set, yearFields(patch.year));
  if (patch.description !== undefined) set['description'] = patch.description;
  if (patch.genres !== undefined) Object.assign(set, genreFields(patch.genres));
  if (patch.poster_url !== undefined) set['poster_url'] = patch.poster_url;
  for (const name of Object.keys(category.fields)) {
    if (patch[name] !== undefined) set[`own.${name}`] = patch[name];
  }
  if (!current) return { set, unset };
  const own = { ...current.own };
  for (const name of Object.keys(category.fields)) if (patch[name] !== undefined) own[name] = patch[name];
  set['person_prefixes'] = personPrefixes(category, own);
  const externalIds = resolveExternalIds(externalIdKeys(category), current.external_ids, patch.external_ids, own);
  const keys = externalKeysOf(externalIds);
  set['external_ids'] = externalIds;
  if (keys.length) set['external_keys'] = keys;
  else unset.push('external_keys');
  return { set, unset, expect: { updatedAt: current.updated_at, externalKeys: current.external_keys ?? null } };
}

/** Each category's own fields with the value a response shows for a missing one, listed once (pages map many rows). */
const ownFieldsShown = new WeakMap<CategoryDefinition, ReadonlyArray<{ name: string; list: boolean }>>();

function ownFieldsOf(category: CategoryDefinition): ReadonlyArray<{ name: string; list: boolean }> {
  let fields = ownFieldsShown.get(category);
  if (!fields) {
    fields = Object.entries(category.fields).map(([name, field]) => ({ name, list: field.kind === 'list' }));
    ownFieldsShown.set(category, fields);
  }
  return fields;
}

/**
 * What clients see: common fields, then the category's own fields in definition order. With `images` (the
 * enabled providers' image bases) it adds `poster`, this API's path of the poster.
 */
export function toEntryResponse(category: CategoryDefinition, doc: EntryResponseSource, images?: ImageSources): Record<string, unknown> {
  const response: Record<string, unknown> = {
    id: doc._id.toHexString(),
    title: doc.title,
    year: doc.year,
    description: doc.description,
    genres: doc.genres,
    external_ids: doc.external_ids,
    poster_url: doc.poster_url ?? null,
    ...(images ? { poster: posterPath(doc.poster_url, images) } : {}),
    created_by: doc.created_by,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
  for (const field of ownFieldsOf(category)) {
    response[field.name] = doc.own?.[field.name] ?? (field.list ? [] : null);
  }
  return response;
}
