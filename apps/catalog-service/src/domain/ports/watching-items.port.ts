import type { Id } from '../ids';

/** Items someone has on their list as `watching` (the daily refresh of shows reads them). */
export interface WatchingItems {
  /** Distinct ids of items some user is watching, at most `limit`. */
  watchingItemIds(limit: number): Promise<Id[]>;
}
