import type { ProviderSearchResults } from '../scenarios/providers';
import type { PlaysResults } from '../scenarios/plays';
import type { MachineProbe } from '../machine/probe';
import type { AuthResults } from '../scenarios/auth';
import type { BulkResults } from '../scenarios/bulk';
import type { BuildAbResults } from '../scenarios/build-ab';
import type { ScrobbleResults } from '../scenarios/scrobble';
import type { CatalogFloorResults } from '../scenarios/catalog-floor';
import type { CatalogScaleResults } from '../scenarios/catalog-scale';
import type { ImportsResults } from '../scenarios/imports';
import type { HotPathResults } from '../scenarios/hot-path';
import type { ImageResults } from '../scenarios/images';
import type { ColdStartResults } from '../scenarios/coldstart';
import type { ListsResults } from '../scenarios/lists';
import type { LoginResults } from '../scenarios/login';
import type { ProxyResults } from '../scenarios/proxy';
import type { SearchAtSize } from '../scenarios/search';
import type { SingleProcessResults } from '../scenarios/single-process';

export interface BenchResults {
  meta: {
    started_at: string;
    finished_at?: string;
    duration_s?: number;
    quick: boolean;
    node: string;
    cpus: number;
    cpu_model: string;
    memory_gb: number;
    /** 1-minute load average when the run started and ended: other work on the machine skews absolute numbers. */
    load_average: { start: number; end?: number };
    /** Page fault, syscall and CPU costs measured before the stack started: runs on machines that differ here do not compare. */
    machine: MachineProbe;
    mongo: { server: string; version: string };
    redis: string;
    settings: Record<string, unknown>;
    notes: string[];
  };
  dataset: {
    sizes: number[];
    vocabulary_words: number;
    search_prefix: string;
    prefix_matches: Record<number, number>;
    users: { total: number; via_api: number; direct: number; distinct_hashes: number; seconds: number };
    list_entries: number;
    seeding_seconds: Record<string, number>;
  };
  proxy?: ProxyResults;
  /** Issue 21: the gateway's own cost per proxied request, in front of a stub upstream (no database). */
  hot_path?: HotPathResults;
  auth?: AuthResults;
  /** Issue 42: the catalog service's CPU per request beside its floor (same libraries, same statements). */
  catalog_floor?: CatalogFloorResults;
  /** Issue 39: provider search (warm cache) beside the catalog's prefix search, same run. */
  providers?: ProviderSearchResults;
  /** Issue 42: the catalog page through the gateway, this build against another one, taking turns. */
  build_ab?: BuildAbResults;
  search?: {
    by_size: SearchAtSize[];
    growth: { prefix_p95: number; sorted_p95: number; from: number; to: number };
  };
  login?: LoginResults;
  bulk_status?: BulkResults;
  scrobble?: ScrobbleResults;
  /** Issue 17: list routes at three list sizes (one user's list each, measured taking turns). */
  lists?: ListsResults;
  /** Issue 16: deep pages by offset and cursor, external id lookup vs title search (largest catalog). */
  catalog_scale?: CatalogScaleResults;
  /** Issue 18: a 10 000-row Letterboxd import and the export of that list. */
  imports?: ImportsResults;
  cold_start?: ColdStartResults;
  /** Issue 37: progress and up-next of many shows and plays against few, POST a play against PATCH. */
  plays?: PlaysResults;
  /** Issue 41: the stack in one process beside one process per service, same data, measured in turn. */
  single_process?: SingleProcessResults;
  /** Issue 39: a poster served from the gateway's image cache beside nginx serving the same file. */
  images?: ImageResults;
  rss_mb: {
    idle_before_seeding?: Record<string, number>;
    /** 20 s after the load (see after_load_series). */
    idle_after_load?: Record<string, number>;
    after_load_series?: Array<{ idle_s: number; rss_mb: Record<string, number> }>;
    /** V8 heap and external memory after the load (the rest of the RSS is code, stacks and native allocations). */
    after_load_breakdown?: Record<
      string,
      { heap_total_mb: number; heap_used_mb: number; external_mb: number }
    >;
  };
  /** CPU each process used while the stack was idle (background work: heartbeats, route-table refreshes...). */
  idle_cpu_ms_per_s?: Record<string, number>;
  log_problems: { count: number; sample: string[] };
  targets: TargetResult[];
}

export interface TargetResult {
  id: string;
  description: string;
  target: string;
  measured: string;
  verdict: 'PASS' | 'FAIL' | 'SKIP';
  note?: string;
}
