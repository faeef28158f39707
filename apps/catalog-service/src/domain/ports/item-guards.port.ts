import type { Session } from './atomic.port';
import type { Id } from '../ids';

/** Who takes guards of a catalog entry (ItemGuardsRepository.touchGuards): an import batch of the user, or a change of the entry (all). */
export type GuardHolder = { userId: string } | 'all';

/** A transaction met guards that do not exist yet (touchGuards): it is abandoned; see withItemGuards. */
export class ItemGuardsMissingError extends Error {}

/**
 * Runs `change`, a transaction that writes guards; when they are missing, creates them (`ensure`, outside any
 * transaction) and runs it once more. Guards are thus created only for a change that got as far as writing
 * them: an entry that exists and a caller allowed to change it (a refused request leaves nothing behind).
 */
export async function withItemGuards<T>(change: () => Promise<T>, ensure: () => Promise<void>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!(error instanceof ItemGuardsMissingError)) throw error;
  }
  await ensure();
  return change();
}

/** The guards of catalog entries that list writes and catalog changes meet on (data/item-guards.repository.ts). */
export interface ItemGuardsStore {
  /** Creates the missing guards, outside any transaction, before a change that touches them. */
  ensureGuards(itemIds: readonly Id[], holder: GuardHolder): Promise<void>;
  /** Writes the guards in the caller's transaction; ItemGuardsMissingError when some do not exist yet. */
  touchGuards(itemIds: readonly Id[], holder: GuardHolder, session: Session): Promise<void>;
}
