import type { CategoryRecord, LiveInstance, OpenApiFragment } from '@mt/contracts';

/**
 * The gateway's view of the registry: live categories and their instances, kept fresh by change
 * notifications and a periodic refresh, and kept as-is (last good table) while the registry is down.
 */
export interface RouteTable {
  /** Loads the first table (does not throw if the registry is down) and starts following changes. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Forces a refresh now; resolves false (keeping the old table) when the registry is unreachable. */
  refresh(): Promise<boolean>;
  /** Live categories, sorted by id. */
  categories(): CategoryRecord[];
  /** The next instance of a category, round robin; undefined when none is live or the category is unknown. */
  pickInstance(categoryId: string, exclude?: ReadonlySet<string>): LiveInstance | undefined;
  instances(categoryId: string): LiveInstance[];
  hasCategory(categoryId: string): boolean;
  /** Each live category's OpenAPI fragment (paths already under /api/v1/{category}). */
  openApiFragments(): Array<{ categoryId: string; fragment: OpenApiFragment }>;
  /** Changes whenever the table's content changes (not on a refresh that found the same table): a cache key. */
  version(): number;
}
