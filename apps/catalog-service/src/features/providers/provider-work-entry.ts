import { externalIdKeys, settableExternalIdKeys } from '@mt/domain';
import type { ProviderWork } from '@mt/providers';
import type { CategoryDefinition } from '../../domain/categories';
import type { EntryFieldsInput } from '../../domain/catalog-query';

/** The entry fields a provider's work gives: the shared ones, the category's own ones it knows, its settable external ids. */
export function workEntryFields(category: CategoryDefinition, work: ProviderWork): EntryFieldsInput & { title: string } {
  const own: Record<string, unknown> = {};
  for (const name of Object.keys(category.fields)) {
    const value = work.fields[name];
    if (value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0)) own[name] = value;
  }
  const keys = externalIdKeys(category);
  const settable = settableExternalIdKeys(keys);
  const externalIds = Object.fromEntries(Object.entries(work.external_ids).filter(([key, value]) => settable.includes(key) && keys[key]?.pattern.test(value)));
  return {
    title: work.title,
    year: work.year,
    description: work.description,
    genres: work.genres,
    poster_url: work.poster_url,
    external_ids: externalIds,
    ...own,
  };
}

/**
 * What a refresh changes: every value the provider gives (a value it lacks leaves the entry's own), except an
 * ISBN the entry already has (an edition someone chose), and only the external ids the entry does not have yet.
 */
export function refreshEntryFields(category: CategoryDefinition, work: ProviderWork, current: { own: Record<string, unknown>; external_ids: Record<string, string> }): EntryFieldsInput {
  const fields = workEntryFields(category, work);
  const patch: EntryFieldsInput = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'external_ids' || value === null || value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (name === 'isbn' && current.own['isbn']) continue;
    patch[name] = value;
  }
  const added = Object.entries(fields.external_ids ?? {}).filter(([key]) => current.external_ids[key] === undefined);
  if (added.length) patch.external_ids = Object.fromEntries(added);
  return patch;
}
