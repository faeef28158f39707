import { readdirSync, readlinkSync, readFileSync } from 'node:fs';
import type { AppName } from '@mt/stack';
import { rssMb, startBenchStack, waitAllReady, waitForCategories } from '../stack/bench-stack';
import { round } from '../stats';
import type { BenchOptions } from '../options';
import { compareListWithCatalog, type ListsResults } from './lists';

/** One mode's stack: its processes' memory idle and after the list/catalog load, and that load's throughput. */
export interface ModeMeasurement {
  /** Distinct processes the launcher started (six apart, one together). */
  processes: number;
  /** Sum over those processes, and each one (by process name; `all-in-one` in single-process mode). */
  idle_rss_mb: { total: number; by_process: Record<string, number> };
  /** Right after the load, and after 20 s of idleness (V8 and the allocator give memory back lazily). */
  after_load_rss_mb: { total: number; by_process: Record<string, number> };
  after_load_idle_20s_rss_mb: { total: number; by_process: Record<string, number> };
  /** The list page of a list of `entries` and the catalog's first page, through the gateway, taking turns. */
  throughput: NonNullable<ListsResults['throughput']>;
}

export interface SingleProcessResults {
  multi: ModeMeasurement;
  single: ModeMeasurement;
  /** Single-process throughput as a share of multi-process, per page. */
  ratio: { catalog: number; list: number };
  /** The stores' own RSS, beside (not in the totals): null when the store is not a process of this machine. */
  stores_rss_mb: { mongo: number | null; redis: number | null };
}

export interface ModeSettings {
  mongoUrl: string;
  redisUrl: string;
  rootDir: string;
  /** The benchmark's databases (its catalog and the list's owner are there already). */
  name: string;
  /** Logs the list's owner in: a JWT for the list page. */
  login: (gatewayUrl: string) => Promise<string>;
  entries: number;
  redisPort: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** RSS of every distinct process of the stack, by the name of its first service (the host's in single-process mode). */
function rssOfProcesses(processes: ReadonlyArray<{ name: string; pid: number }>, singleProcess: boolean) {
  const byPid = new Map<number, string>();
  for (const service of processes) if (!byPid.has(service.pid)) byPid.set(service.pid, singleProcess ? 'all-in-one' : service.name);
  const byProcess = Object.fromEntries([...byPid].map(([pid, name]) => [name, round(rssMb(pid), 1)]));
  return { total: round(Object.values(byProcess).reduce((sum, mb) => sum + mb, 0), 1), by_process: byProcess };
}

/** One stack of the given mode on the benchmark's data: idle RSS, the list/catalog load, RSS after it. */
async function measureMode(
  settings: ModeSettings,
  singleProcess: boolean,
  options: BenchOptions,
  log: (text: string) => void,
): Promise<ModeMeasurement> {
  const started = performance.now();
  const bench = await startBenchStack({ ...settings, singleProcess });
  try {
    await waitAllReady(bench.stack, started, 90_000);
    await waitForCategories(bench.gatewayUrl, 3);
    // As the main run measures idleness: a few seconds after readiness (start-up garbage, first heartbeats).
    await sleep(7000);
    const idle = rssOfProcesses(bench.stack.processes, singleProcess);
    const jwt = await settings.login(bench.gatewayUrl);
    const pid = (app: AppName) => bench.stack.processes.find((service) => service.app === app)?.pid ?? Number.NaN;
    const throughput = await compareListWithCatalog(
      bench.gatewayUrl,
      jwt,
      settings.entries,
      { catalog: pid('catalog-service'), gateway: pid('gateway'), bench: process.pid, redisPort: settings.redisPort },
      options,
      log,
    );
    const afterLoad = rssOfProcesses(bench.stack.processes, singleProcess);
    await sleep(20_000);
    const afterLoadIdle = rssOfProcesses(bench.stack.processes, singleProcess);
    return {
      processes: Object.keys(idle.by_process).length,
      idle_rss_mb: idle,
      after_load_rss_mb: afterLoad,
      after_load_idle_20s_rss_mb: afterLoadIdle,
      throughput,
    };
  } finally {
    await bench.stop();
  }
}

/**
 * The same stack on the same data, one process per service and then all in one, each started fresh and
 * measured alone (the other is stopped): idle RSS of every process the launcher started (stores excluded,
 * listed beside), the list-page and catalog-page throughput, and the RSS after that load.
 */
export async function compareSingleProcess(
  settings: ModeSettings,
  options: BenchOptions,
  log: (text: string) => void,
): Promise<SingleProcessResults> {
  log('  one process per service');
  const multi = await measureMode(settings, false, options, log);
  log(`    idle RSS ${multi.idle_rss_mb.total} MB over ${multi.processes} processes ${JSON.stringify(multi.idle_rss_mb.by_process)}; after the load ${multi.after_load_rss_mb.total} MB`);
  log('  every service in one process');
  const single = await measureMode(settings, true, options, log);
  log(`    idle RSS ${single.idle_rss_mb.total} MB; after the load ${single.after_load_rss_mb.total} MB`);
  return {
    multi,
    single,
    ratio: {
      catalog: round(single.throughput.catalog.rps / multi.throughput.catalog.rps, 2),
      list: round(single.throughput.list.rps / multi.throughput.list.rps, 2),
    },
    stores_rss_mb: { mongo: storeRss(settings.mongoUrl), redis: storeRss(settings.redisUrl) },
  };
}

/** RSS of the local process listening on the store URL's port (found through /proc), or null. */
function storeRss(url: string): number | null {
  const { hostname, port } = new URL(url.replace(/^mongodb(\+srv)?:/, 'http:').replace(/^redis:/, 'http:'));
  if (!['127.0.0.1', 'localhost', '::1'].includes(hostname)) return null;
  const pid = pidListeningOn(Number(port || (url.startsWith('redis') ? 6379 : 27017)));
  return pid === undefined ? null : round(rssMb(pid), 1);
}

function pidListeningOn(port: number): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local address `ADDR:PORT`, state 0A = LISTEN, inode in field 9.
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
    }
  }
  if (!inodes.size) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
        if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return Number(entry);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
