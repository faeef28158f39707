import type { Id } from '../../domain/ids';
import { historyEvents } from '../../domain/list-history';
import { importOutcome, listFieldsOf, type ImportMode, type ImportOutcome } from '../../domain/list-import';
import type { NewListEntryFields } from '../../domain/list-entry';
import { addDeltas, statsDelta } from '../../domain/list-stats';
import type { ChangeStamp, ListWrites } from './list-writes';
import type { ItemGuardsStore } from '../../domain/ports/item-guards.port';
import type { Session } from '../../domain/ports/atomic.port';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { ListOwnersStore } from '../../domain/ports/list-owners-store.port';
import type { ListStore } from '../../domain/ports/list-store.port';
import { listedItem, type ListedItem, type ListEntryChange } from '../../domain/records/list-entry.record';
import type { ListEntryImportsStore } from '../../domain/ports/list-entry-imports-store.port';

/** One row of an import, matched to its catalog entry (`created`: one the batch creates). */
export interface ImportedEntry {
  itemId: Id;
  created?: ListedItem;
  fields: NewListEntryFields;
}

/** A catalog entry an import batch was matched to was removed or merged before the batch was written: match it again. */
export class ListedItemGoneError extends Error {}

export interface ListImportBatchesDeps {
  lists: ListStore;
  imports: ListEntryImportsStore;
  guards: ItemGuardsStore;
  catalog: CatalogStore;
  owners: ListOwnersStore;
  writes: ListWrites;
}

/** What an import job writes to a list: whole batches of matched rows, and a dry run's view of them. */
export class ListImportBatches {

  constructor(private readonly deps: ListImportBatchesDeps) {}

  /**
   * For the import job: one batch of matched rows in ONE transaction with the user's owner document, so the
   * batch is applied whole or not at all, and never after the account's deletion (401). `prepare` runs first
   * in the transaction (it creates the catalog entries rows need); `record` runs last with each row's outcome
   * (the job's counts and checkpoint, committed with the rows). Applied rows are recorded like any list
   * write: one `seq` for the batch in the change feed, history, statistics. Rows are applied in order, so a
   * later row of the batch sees what an earlier one did to the same entry. ListedItemGoneError when a
   * catalog entry a row was matched to was removed or merged since: match the batch again.
   */
  async importEntries(
    userId: string,
    mode: ImportMode,
    rows: readonly ImportedEntry[],
    prepare: (session: Session) => Promise<void>,
    /** Runs last in the batch's write, with its stamp: the job's checkpoint, and what else the rows write (their plays). */
    record: (session: Session, outcomes: ImportOutcome[], stamp: ChangeStamp) => Promise<void>,
  ): Promise<ImportOutcome[]> {
    await this.deps.guards.ensureGuards(rows.filter((row) => !row.created).map((row) => row.itemId), { userId });
    return this.deps.writes.run(userId, async (session, stamp) => {
      await prepare(session);
      const ids = [...new Map(rows.map((row) => [row.itemId.toHexString(), row.itemId])).values()];
      const before = new Map((await this.deps.imports.findEntriesIn(userId, ids, session)).map((entry) => [entry.item_id.toHexString(), entry]));
      const after = new Map<string, { itemId: Id; fields: NewListEntryFields }>();
      const outcomes = rows.map((row) => {
        const key = row.itemId.toHexString();
        const stored = before.get(key);
        const current = after.get(key)?.fields ?? (stored && listFieldsOf(stored));
        const outcome = importOutcome(current, row.fields, mode);
        if (outcome === 'added' || outcome === 'updated') after.set(key, { itemId: row.itemId, fields: listFieldsOf(row.fields) });
        return outcome;
      });
      const added = [...after.entries()].filter(([key]) => !before.has(key));
      const items = await this.itemsToAdd(userId, rows, added.map(([, { itemId }]) => itemId), session);
      const inserts = added.map(([key, { fields }]) => {
        const item = items.get(key);
        if (!item) throw new ListedItemGoneError(`catalog entry ${key} was removed or merged after the batch was matched`);
        return { item, fields, events: historyEvents(null, fields, stamp.at) };
      });
      const updates = [...after.entries()]
        .filter(([key]) => before.has(key))
        .map(([key, { itemId, fields }]) => {
          const old = before.get(key)!;
          const change: ListEntryChange = { ...fields, updated_at: stamp.at, seq: stamp.seq };
          if (old.status === 'completed' && fields.status === 'watching') change.repeat_count = (old.repeat_count ?? 0) + 1;
          return { itemId, change, old, events: historyEvents(old, { ...old, ...change }, stamp.at) };
        });
      await this.deps.imports.writeImported(userId, inserts, updates, stamp.at, stamp.seq, session);
      const deltas = [...inserts.map(({ fields }) => statsDelta(null, fields)), ...updates.map(({ change, old }) => statsDelta(old, { ...old, ...change }))];
      if (deltas.length) await this.deps.owners.addToStats(userId, addDeltas(deltas), session);
      await record(session, outcomes, stamp);
      return outcomes;
    });
  }

  /**
   * The catalog entries an import batch adds to the list, as the entries keep them (absent: gone since they
   * were matched). Those the batch creates are its own until it commits; the others are read after their
   * guards are written (ItemGuardsRepository.touchGuards), so a removal, merge or edit of one racing the batch
   * conflicts with it, and the copy of title and year is the current one. Entries already on the list need
   * no guard: a removal, merge or edit writes them, and conflicts there.
   */
  private async itemsToAdd(userId: string, rows: readonly ImportedEntry[], ids: readonly Id[], session: Session): Promise<Map<string, ListedItem>> {
    const items = new Map(rows.flatMap((row) => (row.created ? [[row.itemId.toHexString(), row.created] as const] : [])));
    const guarded = ids.filter((id) => !items.has(id.toHexString()));
    await this.deps.guards.touchGuards(guarded, { userId }, session);
    for (const [key, row] of await this.deps.catalog.summaries(guarded, session)) items.set(key, listedItem(row));
    return items;
  }

  /**
   * A dry run's view of the same batch: the outcome of each row without writing. `overlay` carries what the
   * dry run's earlier rows would have written (by item id; ids of catalog entries it would create are not
   * in the store), and is updated as rows are judged.
   */
  async previewImport(userId: string, rows: ImportedEntry[], mode: ImportMode, overlay: Map<string, NewListEntryFields>): Promise<ImportOutcome[]> {
    const unknown = rows.map((row) => row.itemId).filter((id) => !overlay.has(id.toHexString()));
    const stored = new Map((await this.deps.lists.findEntries(userId, unknown)).map((entry) => [entry.item_id.toHexString(), listFieldsOf(entry)]));
    return rows.map((row) => {
      const key = row.itemId.toHexString();
      const outcome = importOutcome(overlay.get(key) ?? stored.get(key), row.fields, mode);
      if (outcome === 'added' || outcome === 'updated') overlay.set(key, listFieldsOf(row.fields));
      return outcome;
    });
  }
}
