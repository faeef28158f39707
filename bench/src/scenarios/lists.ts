import type { BenchOptions } from '../options';
import { round } from '../stats';
import { required } from '../required';
import { stackWatch } from '../load/cpu';
import { compareLatency, compareThroughput, type ThroughputStats, type UnloadedLatencyStats } from './compare';
import { ROUTE_1 } from './proxy';

/** The list routes of issue 17, each one page (20 entries; the change feed's default 100). */
export const LIST_SCALE_ROUTES = {
  list_page: '/api/v1/movies/list?limit=20',
  list_status_page: '/api/v1/movies/list?status=watching&limit=20',
  changes_page: '/api/v1/movies/list/changes',
  stats: '/api/v1/movies/list/stats',
} as const;

export type ListScaleRoute = keyof typeof LIST_SCALE_ROUTES;

export interface ListsAtSize {
  entries: number;
  latency: Record<ListScaleRoute, UnloadedLatencyStats>;
}

export interface ListsResults {
  by_size: ListsAtSize[];
  /** p95 at the largest list ÷ p95 at the smallest, per route (target ≤ 1.5). */
  growth_p95: Record<ListScaleRoute, number>;
  /** Closed-loop throughput of the list page (at `entries`) and of a public catalog page, and their ratio (target ≥ 0.6). */
  throughput?: { entries: number; list: ThroughputStats; catalog: ThroughputStats; ratio: number };
}

/**
 * Unloaded latency of every list route at every size, one request at a time through the gateway: one list
 * per size (each its own user's), all measured taking turns, so the growth ratios compare sizes under the
 * same machine state. Measured one size after the other, right after each seeding, the ratios drifted: in
 * 12 full runs `/list/stats`, which reads one document whatever the size, "grew" 0.71–1.68×.
 */
export async function measureListsBySize(
  gatewayUrl: string,
  lists: readonly { entries: number; jwt: string }[],
  options: BenchOptions,
  log: (text: string) => void,
): Promise<ListsAtSize[]> {
  const routes = Object.keys(LIST_SCALE_ROUTES) as ListScaleRoute[];
  const nameOf = (route: ListScaleRoute, entries: number) => `${route}@${entries}`;
  const latency = await compareLatency(
    lists.flatMap(({ entries, jwt }) =>
      routes.map((route) => ({
        name: nameOf(route, entries),
        url: `${gatewayUrl}${LIST_SCALE_ROUTES[route]}`,
        request: { headers: { authorization: `Bearer ${jwt}` } },
      })),
    ),
    { repeats: options.repeats, rounds: options.latencyRounds },
  );
  return lists.map(({ entries }) => {
    const bySize = Object.fromEntries(
      routes.map((route) => [route, required(latency[nameOf(route, entries)], `latency of ${route} at ${entries}`)]),
    ) as Record<ListScaleRoute, UnloadedLatencyStats>;
    for (const [name, stats] of Object.entries(bySize)) log(`    ${entries} entries, ${name.padEnd(16)} p50 ${stats.p50} ms, p95 ${stats.p95} ms`);
    return { entries, latency: bySize };
  });
}

/**
 * The list page against a public catalog page (the proxy scenario's route), same load, taking turns; with
 * each process's CPU per request, which says where the list page's extra cost lies.
 */
export async function compareListWithCatalog(
  gatewayUrl: string,
  jwt: string,
  entries: number,
  pids: { catalog: number; gateway: number; bench: number; redisPort: string },
  options: BenchOptions,
  log: (text: string) => void,
): Promise<NonNullable<ListsResults['throughput']>> {
  const watch = stackWatch(pids);
  const stats = await compareThroughput(
    [
      { name: 'list', load: { url: `${gatewayUrl}${LIST_SCALE_ROUTES.list_page}`, headers: { authorization: `Bearer ${jwt}` } } },
      { name: 'catalog', load: { url: `${gatewayUrl}${ROUTE_1}` } },
    ],
    { repeats: options.repeats, durationS: options.durationS, connections: options.connections },
    log,
    watch,
  );
  const list = required(stats['list'], 'list throughput');
  const catalog = required(stats['catalog'], 'catalog throughput');
  return { entries, list, catalog, ratio: round(list.rps / catalog.rps, 2) };
}

export function listGrowth(bySize: readonly ListsAtSize[]): ListsResults['growth_p95'] {
  const first = required(bySize[0], 'list sizes');
  const last = required(bySize[bySize.length - 1], 'list sizes');
  return Object.fromEntries(
    (Object.keys(LIST_SCALE_ROUTES) as ListScaleRoute[]).map((name) => [name, round(last.latency[name].p95 / first.latency[name].p95, 2)]),
  ) as ListsResults['growth_p95'];
}
