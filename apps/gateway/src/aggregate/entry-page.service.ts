import { errors } from '@mt/errors';
import type { CategoryRecord } from '@mt/contracts';
import type { CategoryClient } from './category-client';
import { asApiError, CategoryCallError } from './category-client';
import type { EntryPage } from './aggregate.schemas';

/**
 * A catalog entry with the caller's list entry for it, in one answer: the list's own endpoint answers 404
 * for a work that is not on the list, which a browser logs as a failed request on every such page. A merged
 * id is followed to its survivor (the catalog's 301), whose id the answer carries.
 */
export async function entryWithListEntry(client: CategoryClient, category: CategoryRecord, id: string, withList: boolean, timeoutMs: number): Promise<EntryPage> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const item = await client.get<{ id: string; [field: string]: unknown }>(category.id, `/${id}`, signal);
    if (item.status === 404) throw errors.notFound(`no ${category.id} entry ${id}`);
    if (item.status !== 200) throw errors.badGateway(`${category.id} answered ${item.status}`);
    if (!withList) return { item: item.body, list_entry: null };
    const listEntry = await client.get<Record<string, unknown>>(category.id, `/list/${item.body.id}`, signal);
    if (listEntry.status !== 200 && listEntry.status !== 404) throw errors.badGateway(`${category.id} answered ${listEntry.status}`);
    return { item: item.body, list_entry: listEntry.status === 200 ? listEntry.body : null };
  } catch (error) {
    if (error instanceof CategoryCallError) throw asApiError(error);
    throw error;
  }
}
