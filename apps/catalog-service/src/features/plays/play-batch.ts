import { AppError, errors } from '@mt/errors';
import { externalKeysOf } from '@mt/domain';
import { toId, type Id } from '../../domain/ids';
import { externalIdKeys, type CategoryDefinition } from '../../domain/categories';
import { MAX_BATCH_PLAYS } from '../../domain/plays';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { ListWrites } from '../list/list-writes';
import { planPlays, type PlannedPlay, type PlayedWork, type PlaysInput } from './play-targets';
import type { PlayRecorder } from './play-recorder';

/** One item of a batch: the item by id or by external ids, and its plays (the public POST's fields). */
export interface BatchItemInput extends PlaysInput {
  item_id?: string;
  external_ids?: Record<string, string>;
}

export interface BatchResult {
  added: number;
  existing: number;
  not_found: Array<{ index: number; reason: string }>;
}

export interface PlayBatchDeps {
  category: CategoryDefinition;
  catalog: CatalogStore;
  recorder: PlayRecorder;
  writes: ListWrites;
  now?: () => Date;
}

interface ReadyItem {
  index: number;
  itemId: Id;
  work: PlayedWork;
  planned: PlannedPlay[];
  sourceEventId?: string;
}

/**
 * Many items' plays at once (Trakt's history shape; imports call it with `source` `import:<source>`): every
 * item is resolved and checked first, then each is written whole in its own list write. An item whose work,
 * episode or external id is unknown (or whose plays cannot be dated) is reported in `not_found`, the others
 * are applied; more than MAX_BATCH_PLAYS plays in all is a 400 before anything is written.
 */
export class PlayBatch {
  private readonly now: () => Date;

  constructor(private readonly deps: PlayBatchDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async record(userId: string, items: readonly BatchItemInput[], source: string): Promise<BatchResult> {
    const now = this.now();
    const result: BatchResult = { added: 0, existing: 0, not_found: [] };
    const ready: ReadyItem[] = [];
    for (const [index, item] of items.entries()) {
      try {
        const itemId = await this.resolve(item);
        const work = itemId && (await this.deps.recorder.work(itemId));
        if (!itemId || !work) throw errors.notFound(item.item_id ? `catalog entry ${item.item_id} not found` : 'no catalog entry has these external ids');
        ready.push({ index, itemId, work, planned: planPlays(item, work, now), sourceEventId: item.source_event_id });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        result.not_found.push({ index, reason: error.message });
      }
    }
    const plays = ready.reduce((sum, item) => sum + item.planned.length, 0);
    if (plays > MAX_BATCH_PLAYS) throw errors.validation(`a batch adds at most ${MAX_BATCH_PLAYS} plays`, [{ path: 'items', message: `these items name ${plays} plays` }]);
    for (const item of ready) {
      try {
        const recorded = await this.deps.writes.run(userId, (_session, stamp) => this.deps.recorder.record(stamp, { itemId: item.itemId, planned: item.planned, source, sourceEventId: item.sourceEventId }, item.work));
        result.added += recorded.added.length;
        result.existing += recorded.existing;
      } catch (error) {
        // Removed from the catalog since it was resolved: like an unknown item.
        if (!(error instanceof AppError) || error.status !== 404) throw error;
        result.not_found.push({ index: item.index, reason: error.message });
      }
    }
    result.not_found.sort((a, b) => a.index - b.index);
    return result;
  }

  private async resolve(item: BatchItemInput): Promise<Id | null> {
    if (item.item_id) return toId(item.item_id);
    const keys = externalIdKeys(this.deps.category);
    const known = Object.fromEntries(Object.entries(item.external_ids ?? {}).filter(([key]) => key in keys));
    const matches = await this.deps.catalog.findByExternalKeys(externalKeysOf(known));
    return matches[0]?._id ?? null;
  }
}
