import type { CategoryRecord, LiveInstance, OpenApiFragment, RoutedService } from '@mt/contracts';

/**
 * The gateway's view of the registry: every known service with its live instances, route manifest and
 * OpenAPI fragment, kept fresh by change notifications and a periodic refresh, and kept as-is (last good
 * table) while the registry is down.
 */
export interface RouteTable {
  /** Loads the first table (does not throw if the registry is down) and starts following changes. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Forces a refresh now; resolves false (keeping the old table) when the registry is unreachable. */
  refresh(): Promise<boolean>;
  /** True once a table has been loaded from the registry (routing is unknown before). */
  loaded(): boolean;
  /** Every known service, sorted by id; a service whose instances are all gone is listed without instances. */
  services(): readonly RoutedService[];
  /** Categories with at least one live instance, sorted by id. */
  categories(): CategoryRecord[];
  /** The next live instance of a service, round robin; undefined when none is live or the service is unknown. */
  pickInstance(service: string, exclude?: ReadonlySet<string>): LiveInstance | undefined;
  instances(service: string): readonly LiveInstance[];
  /** Each known service's OpenAPI fragment (paths under /api/v1/{service}). */
  openApiFragments(): Array<{ service: string; category?: CategoryRecord; fragment: OpenApiFragment }>;
  /** Changes whenever the table's content changes (not on a refresh that found the same table): a cache key. */
  version(): number;
}
