import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, SERVICE_NODE_OPTIONS } from '@mt/stack';
import { signIdentity } from '@mt/identity';
import { cpuMeter, databasePids } from '../load/cpu';
import { HttpClient } from '../load/http-client';
import { stopChildServer, waitForChildServer } from '../stack/child-server';
import type { BenchOptions } from '../options';
import { median, round } from '../stats';
import { required } from '../required';
import { compareThroughput, FLOOR_WARMUP_S, type ThroughputStats, type Variant } from './compare';
import { ROUTE_1 } from './proxy';

/** The catalog's CPU per request may be at most this many times its floor's (issue 42). */
export const CATALOG_FLOOR_FACTOR = 1.5;

export const FLOOR_REQUESTS = {
  catalog_page: `GET ${ROUTE_1}`,
  list_page: 'GET /api/v1/movies/list',
  list_patch: 'PATCH /api/v1/movies/list/{item_id}',
} as const;
export type FloorRequest = keyof typeof FLOOR_REQUESTS;

export interface CatalogFloorResults {
  /** Per request: the service and its floor, interleaved; CPU per request of each process. */
  requests: Record<
    FloorRequest,
    {
      service: ThroughputStats;
      floor: ThroughputStats;
      service_cpu_us: number;
      floor_cpu_us: number;
      ratio: number;
      /** The same net of each process's idle rate (measured just before): background timers left out. */
      net: { service_cpu_us: number; floor_cpu_us: number; ratio: number };
    }
  >;
  /** CPU each process used while idle, ms per s: the lower of a reading before the runs and one after them. */
  idle_cpu_ms_per_s: { service: number; floor: number };
  list_entries: number;
}

/** How long each process's idle CPU is measured before the runs. */
const IDLE_MS = 3000;

/** Concurrent PATCHes of the one user. */
const PATCH_CONNECTIONS = 4;

/** The request id the identity is signed for: the service checks the signature over it. */
const REQUEST_ID = 'bench-catalog-floor';

async function startFloor(settings: { mongoUrl: string; dbName: string; secret: string; sorting: boolean; profileDir?: string }): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const script = path.join(path.dirname(required(process.argv[1], 'the bench script')), 'stack', 'catalog-floor.js');
  // Profiled as the services are (same preload, same sampling interval), so the two profiles compare.
  const preload = path.join(path.dirname(script), '..', '..', '..', 'bench', 'tools', 'cpu-profile-preload.cjs');
  // V8's settings of the service it is the floor of.
  const args = [...SERVICE_NODE_OPTIONS.split(/\s+/), ...(settings.profileDir ? ['--require', preload] : []), script, `--port=${port}`, `--mongo=${settings.mongoUrl}`, `--db=${settings.dbName}`, `--secret=${settings.secret}`];
  if (settings.sorting) args.push('--sorting');
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...(settings.profileDir ? { CPU_PROFILE_DIR: settings.profileDir } : {}) } });
  const url = `http://127.0.0.1:${port}`;
  await waitForChildServer(child, `${url}${ROUTE_1}`, 'the catalog floor', 100);
  return { url, child };
}

/**
 * The catalog service beside its floor (bench/src/stack/catalog-floor.ts: express, the mongoose connection's
 * collections, the same statements and JSON), straight at each, no gateway: a public catalog page, the
 * benchmark user's list page (its 10 000 entries) and a PATCH of one of its entries (score 7 and 8 in turn).
 * The two take turns run by run; CPU µs per request of each process from /proc, and the database's.
 */
export async function measureCatalogFloor(
  /** `profileDir`: the floor writes a CPU profile there when it ends (beside the service's, `--profile=catalog-service`). */
  target: { catalog: string; catalogPid: number; mongoUrl: string; dbName: string; secret: string; sorting: boolean; profileDir?: string },
  user: { id: string; itemId: string; listEntries: number },
  options: BenchOptions,
  log: (text: string) => void,
): Promise<CatalogFloorResults> {
  const floor = await startFloor(target);
  try {
    // Signed afresh for every run (a signature is good for a minute): the getter is read as each run starts.
    const identity = () => ({
      'x-request-id': REQUEST_ID,
      ...signIdentity({ userId: user.id, authType: 'jwt', scopes: ['list:read', 'list:write'], tokenId: 'bench' }, REQUEST_ID, target.secret),
    });
    const listPath = '/api/v1/movies/list';
    const patchPath = `${listPath}/${user.itemId}`;
    const client = new HttpClient(1);
    try {
      for (const base of [target.catalog, floor.url]) {
        await client.expect(`${base}${listPath}`, 200, { headers: identity() });
        await client.expect(`${base}${patchPath}`, 200, { method: 'PATCH', headers: identity(), json: { score: 7 } });
      }
    } finally {
      client.close();
    }
    const requests: Record<FloorRequest, Omit<Variant, 'name'>['load']> = {
      catalog_page: { url: ROUTE_1 },
      list_page: {
        url: listPath,
        get headers() {
          return identity();
        },
      },
      list_patch: {
        url: patchPath,
        method: 'PATCH',
        bodies: [JSON.stringify({ score: 8 }), JSON.stringify({ score: 7 })],
        get headers() {
          return identity();
        },
      },
    };
    const watch = { service: [target.catalogPid], floor: [required(floor.child.pid, 'floor pid')], database: databasePids };
    const idleRate = async () => {
      const meter = cpuMeter({ service: watch.service, floor: watch.floor });
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const used = meter.stop();
      return { service: round(((used['service'] ?? 0) * 1000) / IDLE_MS, 1), floor: round(((used['floor'] ?? 0) * 1000) / IDLE_MS, 1) };
    };
    const before = await idleRate();
    const measured: Array<[FloorRequest, ThroughputStats, ThroughputStats]> = [];
    for (const [name, load] of Object.entries(requests) as Array<[FloorRequest, Variant['load']]>) {
      log(`  ${FLOOR_REQUESTS[name]}: service and floor taking turns, ${options.connections} connections, ${options.durationS} s × ${options.repeats}`);
      const at = (base: string): Variant['load'] => Object.defineProperty({ ...load, url: `${base}${load.url}` }, 'headers', { get: () => load.headers, enumerable: true });
      const throughput = await compareThroughput(
        [
          { name: 'service', load: at(target.catalog) },
          { name: 'floor', load: at(floor.url) },
        ],
        // One user's writes take turns in either: more connections would only queue (and leave a backlog
        // that the next run's target meets).
        { ...options, warmupS: FLOOR_WARMUP_S, ...(name === 'list_patch' ? { connections: Math.min(options.connections, PATCH_CONNECTIONS) } : {}) },
        log,
        watch,
      );
      measured.push([name, required(throughput['service'], 'service'), required(throughput['floor'], 'floor')]);
    }
    // Idle again once the load is over: a one-off burst (compilation after the first requests, a collection)
    // inflates one of the two readings; the lower is the background the process always has.
    const after = await idleRate();
    const idle = { service: Math.min(before.service, after.service), floor: Math.min(before.floor, after.floor) };
    log(`  idle CPU before / after the runs (ms per s): service ${before.service} / ${after.service}, floor ${before.floor} / ${after.floor}`);
    // Per request net of the idle rate, median of the runs.
    const net = (stats: ThroughputStats, name: 'service' | 'floor') =>
      round(median(stats.runs.map((run) => (((run.cpu_ms?.[name] ?? 0) - idle[name] * options.durationS) * 1000) / Math.max(1, run.ok))), 0);
    const results = {} as CatalogFloorResults['requests'];
    for (const [name, service, floorStats] of measured) {
      const serviceCpu = required(service.cpu_us_per_request?.['service'], 'service CPU');
      const floorCpu = required(floorStats.cpu_us_per_request?.['floor'], 'floor CPU');
      const serviceNet = net(service, 'service');
      const floorNet = net(floorStats, 'floor');
      results[name] = {
        service,
        floor: floorStats,
        service_cpu_us: serviceCpu,
        floor_cpu_us: floorCpu,
        ratio: round(serviceCpu / Math.max(1, floorCpu), 2),
        net: { service_cpu_us: serviceNet, floor_cpu_us: floorNet, ratio: round(serviceNet / Math.max(1, floorNet), 2) },
      };
      log(`    CPU per request: service ${serviceCpu} µs, floor ${floorCpu} µs (${results[name].ratio}×); net of idle ${serviceNet} / ${floorNet} µs (${results[name].net.ratio}×)`);
    }
    return { requests: results, list_entries: user.listEntries, idle_cpu_ms_per_s: idle };
  } finally {
    await stopChildServer(floor.child, 'SIGINT');
  }
}
