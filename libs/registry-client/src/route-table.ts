import { INTERNAL_PATHS, RouteTableSchema, redisKeys, type CategoryRecord, type LiveInstance, type OpenApiFragment, type RouteTableSnapshot } from '@mt/contracts';
import type { Logger } from '@mt/logging';
import { closeRedis, createRedis, type Redis } from '@mt/stores';
import { callRegistry, reasonOf } from './registry-http';
import type { RouteTable } from './route-table.types';

export interface RouteTableOptions {
  registryUrl: string;
  internalSecret: string;
  /** Redis of the registry, for its change notifications. */
  redisUrl: string;
  redisKeyPrefix: string;
  logger: Logger;
  /** Safety net for missed notifications (Redis down, a lost message). */
  refreshIntervalMs?: number;
  requestTimeoutMs?: number;
}

interface CategoryRoutes {
  category: CategoryRecord;
  instances: LiveInstance[];
  fragment: OpenApiFragment;
}

const EMPTY: RouteTableSnapshot = { categories: [] };

/**
 * The registry's route table as the gateway follows it: loaded at start, reloaded on every change
 * notification (Redis pub/sub, own subscriber connection) and every `refreshIntervalMs`; a failed load
 * keeps the last good table, so a registry outage never takes routes away.
 */
export function createRouteTable(options: RouteTableOptions): RouteTable {
  const { registryUrl, internalSecret, redisUrl, redisKeyPrefix } = options;
  const refreshIntervalMs = options.refreshIntervalMs ?? 5000;
  const requestTimeoutMs = options.requestTimeoutMs ?? 2000;
  const log = options.logger.child({ component: 'route-table' });
  const channel = redisKeys(redisKeyPrefix).registryChanges();
  const abort = new AbortController();

  let serialized = JSON.stringify(EMPTY);
  let byId = new Map<string, CategoryRoutes>();
  let categoryList: CategoryRecord[] = [];
  let fragments: Array<{ categoryId: string; fragment: OpenApiFragment }> = [];
  let version = 0;
  const nextIndex = new Map<string, number>();
  let registryReachable: boolean | undefined;
  let subscriber: Redis | undefined;
  let timer: NodeJS.Timeout | undefined;

  function apply(snapshot: RouteTableSnapshot): void {
    const json = JSON.stringify(snapshot);
    if (json === serialized) return;
    serialized = json;
    byId = new Map(snapshot.categories.map((c) => [c.category.id, { category: c.category, instances: c.instances, fragment: toFragment(c.openapi) }]));
    categoryList = snapshot.categories.map((c) => c.category);
    fragments = [...byId.values()].map((c) => ({ categoryId: c.category.id, fragment: c.fragment }));
    version += 1;
    log.info({ categories: snapshot.categories.map((c) => ({ id: c.category.id, instances: c.instances.length })) }, 'route table changed');
  }

  function noteReachable(reachable: boolean, reason?: string): void {
    if (reachable && registryReachable === false) log.info('registry reachable again');
    if (!reachable) {
      const details = { registry: registryUrl, reason };
      if (registryReachable !== false) log.warn(details, 'registry unreachable; keeping the last good route table');
      else log.debug(details, 'registry still unreachable');
    }
    registryReachable = reachable;
  }

  async function load(): Promise<boolean> {
    try {
      const { status, body } = await callRegistry(registryUrl, internalSecret, INTERNAL_PATHS.registryRoutes, {
        method: 'GET',
        timeoutMs: requestTimeoutMs,
        signal: abort.signal,
      });
      if (status !== 200) throw new Error(`registry answered ${status}`);
      const parsed = RouteTableSchema.safeParse(body);
      if (!parsed.success) throw new Error('registry answered an invalid route table');
      apply(parsed.data);
      noteReachable(true);
      return true;
    } catch (error) {
      if (!abort.signal.aborted) noteReachable(false, reasonOf(error));
      return false;
    }
  }

  // One load at a time; a refresh asked for during a load runs once more after it, so a notification
  // that arrives mid-load is never answered with a table read before the change.
  let running: Promise<boolean> | undefined;
  let queued: Promise<boolean> | undefined;
  function refresh(): Promise<boolean> {
    if (abort.signal.aborted) return Promise.resolve(false);
    if (!running) {
      running = load().finally(() => (running = undefined));
      return running;
    }
    queued ??= running.then(() => {
      queued = undefined;
      return refresh();
    });
    return queued;
  }

  function followChanges(): void {
    subscriber = createRedis({ url: redisUrl, logger: log, name: 'gateway-route-table', blocking: true });
    subscriber.on('message', () => void refresh());
    // After a reconnect notifications may have been missed: reload.
    subscriber.on('ready', () => void refresh());
    subscriber.subscribe(channel).catch((error: unknown) => log.warn({ reason: reasonOf(error) }, 'could not subscribe to registry changes'));
    timer = setInterval(() => void refresh(), refreshIntervalMs);
    timer.unref();
  }

  return {
    async start() {
      if (subscriber || abort.signal.aborted) return;
      followChanges();
      await refresh();
    },
    async stop() {
      abort.abort();
      clearInterval(timer);
      if (subscriber) await closeRedis(subscriber);
    },
    refresh,
    categories: () => categoryList,
    instances: (categoryId) => byId.get(categoryId)?.instances ?? [],
    hasCategory: (categoryId) => byId.has(categoryId),
    openApiFragments: () => fragments,
    version: () => version,
    pickInstance(categoryId, exclude) {
      const instances = byId.get(categoryId)?.instances ?? [];
      const start = nextIndex.get(categoryId) ?? 0;
      for (let offset = 0; offset < instances.length; offset++) {
        const index = (start + offset) % instances.length;
        const candidate = instances[index];
        if (!candidate || exclude?.has(candidate.instance_id)) continue;
        nextIndex.set(categoryId, index + 1);
        return candidate;
      }
      return undefined;
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The contract types `components` loosely; OpenAPI components are maps of named objects, so keep only those. */
function toFragment(openapi: RouteTableSnapshot['categories'][number]['openapi']): OpenApiFragment {
  const components = Object.fromEntries(Object.entries(openapi.components).filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1])));
  return { paths: openapi.paths, components };
}
