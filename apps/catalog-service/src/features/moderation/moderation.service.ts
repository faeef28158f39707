import { errors } from '@mt/errors';
import { toId, type Id } from '../../domain/ids';
import type { CategoryDefinition } from '../../domain/categories';
import { externalKeysOf } from '@mt/domain';
import type { ListItemCascades } from '../list/list-item-cascades';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import { toEntryResponse } from '../../domain/catalog-entry';
import type { ImageSources } from '@mt/providers';
import type { EntryDocument } from '../../domain/records/catalog-entry.record';
import { withItemGuards } from '../../domain/ports/item-guards.port';
import { listedItem } from '../../domain/records/list-entry.record';
import { TransactionContentionError, type AtomicRunner, type Session } from '../../domain/ports/atomic.port';
import type { EntryRedirectsStore } from '../../domain/ports/entry-redirects-store.port';
import { episodeCountFields } from '../../domain/episodes';
import type { EpisodesStore } from '../../domain/ports/episodes-store.port';

export interface ModerationServiceDeps {
  category: CategoryDefinition;
  entries: CatalogStore;
  lists: ListItemCascades;
  redirects: EntryRedirectsStore;
  /** Episodic categories: a show's episodes go or move with it. */
  episodes: EpisodesStore | null;
  atomic: AtomicRunner;
  now?: () => Date;
  /** The enabled providers' image bases (the survivor's `poster`). */
  images?: ImageSources;
}

/**
 * Catalog moderation beyond PATCH: removing and merging entries. Each is one transaction with
 * every list entry that points at the entry (ListItemCascades.removeEntriesOfItem / moveEntries), so no list is
 * left pointing at a missing entry, every list change is in its owner's change feed, and a process killed
 * in the middle leaves the old state or the new one.
 */
export class ModerationService {
  private readonly now: () => Date;

  constructor(private readonly deps: ModerationServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async remove(id: string): Promise<{ message: string; list_entries_removed: number }> {
    const objectId = toId(id);
    const removed = await this.transaction(objectId, async (session) => {
      // The entry first: a list addition racing this conflicts on it (see CatalogRepository.claimForList).
      if (!(await this.deps.entries.deleteById(objectId, session))) return null;
      await this.deps.redirects.forgetInto(objectId, session);
      await this.deps.episodes?.deleteOfShow(objectId, session);
      return this.deps.lists.removeEntriesOfItem(objectId, session);
    });
    if (removed === null) throw this.notFound();
    return { message: `${this.deps.category.id} entry removed`, list_entries_removed: removed };
  }

  /**
   * Folds `id` into `into`: list entries move (a user holding both keeps the one updated last), external ids
   * are combined (the same key with another value is a 409, and nothing changes), `id` leads to `into` from
   * then on. Returns the survivor.
   */
  async merge(id: string, into: string): Promise<Record<string, unknown>> {
    if (id === into) throw errors.validation('an entry cannot be merged into itself', [{ path: 'into', message: 'must be another entry than the one in the path' }]);
    const fromId = toId(id);
    const intoId = toId(into);
    const survivor = await this.transaction(fromId, async (session) => {
      const from = await this.deps.entries.findById(fromId, session);
      if (!from) throw this.notFound();
      const target = await this.deps.entries.findById(intoId, session);
      if (!target) throw errors.notFound(`the ${this.deps.category.id} entry to merge into (into) was not found`);
      const ids = this.combinedExternalIds(from, target);
      // The merged entry first: the survivor can then take its external ids under the unique index, and a
      // list addition of it racing the merge conflicts here (CatalogRepository.claimForList).
      await this.deps.entries.deleteById(fromId, session);
      // Matched by season and number: where both shows have an episode, the survivor's stays and plays name it.
      const replaced = (await this.deps.episodes?.mergeShow(fromId, intoId, session)) ?? new Map<string, Id>();
      await this.deps.lists.moveEntries(fromId, listedItem(target), session, replaced);
      const updated = await this.deps.entries.setExternalIds(intoId, ids, externalKeysOf(ids), this.now(), session);
      await this.deps.redirects.record(fromId, intoId, this.now(), session);
      return (await this.recountEpisodes(intoId, session)) ?? updated ?? target;
    });
    return toEntryResponse(this.deps.category, survivor, this.deps.images ?? {});
  }

  /** Episodic categories: the survivor's counts follow the episodes it received. */
  private async recountEpisodes(intoId: Id, session: Session): Promise<EntryDocument | null> {
    const { episodes, category } = this.deps;
    if (!episodes || !category.episodic) return null;
    const merged = await episodes.allOf(intoId, session);
    // Counts typed by hand on shows without episodes stay as they are.
    if (!merged.length) return null;
    const set = episodeCountFields(category.episodic, merged);
    return this.deps.entries.updateIfCreatedBy(intoId, null, { set, unset: [] }, session);
  }

  private combinedExternalIds(from: EntryDocument, into: EntryDocument): Record<string, string> {
    const kept = into.external_ids;
    const merged = from.external_ids;
    const clashes = Object.keys(merged).filter((key) => kept[key] !== undefined && kept[key] !== merged[key]);
    if (clashes.length) {
      throw errors.conflict(`both entries have different external ids for ${clashes.join(', ')}; correct one of them first`, {
        existing_id: into._id.toHexString(),
      });
    }
    return { ...merged, ...kept };
  }

  /** A moderation of `itemId` in one transaction, with the guards its list side writes (withItemGuards). */
  private async transaction<T>(itemId: Id, work: (session: Session) => Promise<T>): Promise<T> {
    try {
      return await withItemGuards(
        () => this.deps.atomic.run(work),
        () => this.deps.lists.ensureGuard(itemId),
      );
    } catch (error) {
      if (error instanceof TransactionContentionError) throw errors.serviceUnavailable('the entry is being changed by too many requests at once; try again');
      throw error;
    }
  }

  private notFound() {
    return errors.notFound(`${this.deps.category.id} entry not found`);
  }
}
