import { INTERNAL_PATHS, RouteTableSchema, redisKeys, type CategoryRecord, type RoutedService, type RouteTableSnapshot } from '@mt/contracts';
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
  /** How long a table without any live instance must persist before it replaces one with instances. */
  emptyConfirmMs?: number;
  /** How long after start an unreachable registry is expected (it may be starting beside us) and logged at debug only. */
  startupGraceMs?: number;
}

const EMPTY: RouteTableSnapshot = { services: [] };

const instanceCount = (snapshot: RouteTableSnapshot) => snapshot.services.reduce((sum, service) => sum + service.instances.length, 0);

/**
 * The registry's route table as the gateway follows it: loaded at start, reloaded on every change
 * notification (Redis pub/sub, own subscriber connection) and every `refreshIntervalMs`; a failed load
 * keeps the last good table, so a registry outage never takes routes away. A table that would drop every
 * live instance at once is not taken on the registry's word alone: it is confirmed by a second load after
 * `emptyConfirmMs` (a registry that has just restarted may not have heard the heartbeats yet).
 */
export function createRouteTable(options: RouteTableOptions): RouteTable {
  const { registryUrl, internalSecret, redisUrl, redisKeyPrefix } = options;
  const refreshIntervalMs = options.refreshIntervalMs ?? 5000;
  const requestTimeoutMs = options.requestTimeoutMs ?? 2000;
  const emptyConfirmMs = options.emptyConfirmMs ?? 10_000;
  const startupGraceMs = options.startupGraceMs ?? 10_000;
  const log = options.logger.child({ component: 'route-table' });
  const channel = redisKeys(redisKeyPrefix).registryChanges();
  const abort = new AbortController();

  let current: RouteTableSnapshot = EMPTY;
  let serialized = JSON.stringify(EMPTY);
  let isLoaded = false;
  let byService = new Map<string, RoutedService>();
  let categoryList: CategoryRecord[] = [];
  let version = 0;
  const nextIndex = new Map<string, number>();
  let registryReachable: boolean | undefined;
  /** Whether an outage was reported at WARN: only then is the recovery worth an INFO line. */
  let outageReported = false;
  let startedAt = Date.now();
  let subscriber: Redis | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** When a table without any live instance was first seen while ours had some. */
  let emptySince: number | undefined;
  let confirmTimer: NodeJS.Timeout | undefined;

  /** The ETag of the table in use: an unchanged table then costs a 304, not a parse of every manifest. */
  let currentEtag: string | undefined;

  /** Takes the registry's table; false while a table without any live instance awaits confirmation. */
  function apply(snapshot: RouteTableSnapshot): boolean {
    isLoaded = true;
    if (instanceCount(snapshot) === 0 && instanceCount(current) > 0) {
      const now = Date.now();
      emptySince ??= now;
      if (now - emptySince < emptyConfirmMs) {
        log.warn({ confirm_in_ms: emptySince + emptyConfirmMs - now }, 'the registry reports no live instance at all; keeping the current table until that is confirmed');
        confirmTimer ??= setTimeout(() => {
          confirmTimer = undefined;
          void refresh();
        }, emptyConfirmMs - (now - emptySince) + 10);
        confirmTimer.unref();
        return false;
      }
    }
    emptySince = undefined;
    const json = JSON.stringify(snapshot);
    if (json === serialized) return true;
    current = snapshot;
    serialized = json;
    byService = new Map(snapshot.services.map((service) => [service.service, service]));
    categoryList = snapshot.services.filter((s) => s.category && s.instances.length > 0).map((s) => s.category as CategoryRecord);
    version += 1;
    log.debug({ services: snapshot.services.map((s) => ({ service: s.service, instances: s.instances.length })) }, 'route table changed');
    return true;
  }

  function noteReachable(reachable: boolean, reason?: string): void {
    if (reachable) {
      if (outageReported) log.info('registry reachable again');
      else if (registryReachable === false) log.debug('registry reachable');
      outageReported = false;
    } else {
      const details = { registry: registryUrl, reason };
      // Services start side by side: a registry not yet listening during the first seconds is no problem.
      const starting = !isLoaded && Date.now() - startedAt < startupGraceMs;
      if (!outageReported && !starting) {
        log.warn(details, 'registry unreachable; keeping the last good route table');
        outageReported = true;
      } else log.debug(details, 'registry still unreachable');
    }
    registryReachable = reachable;
  }

  async function load(): Promise<boolean> {
    try {
      const { status, body, etag } = await callRegistry(registryUrl, internalSecret, INTERNAL_PATHS.registryRoutes, {
        method: 'GET',
        timeoutMs: requestTimeoutMs,
        signal: abort.signal,
        ifNoneMatch: currentEtag,
      });
      if (status === 304 && currentEtag !== undefined) {
        noteReachable(true);
        return true;
      }
      if (status !== 200) throw new Error(`registry answered ${status}`);
      const parsed = RouteTableSchema.safeParse(body);
      if (!parsed.success) throw new Error('registry answered an invalid route table');
      currentEtag = apply(parsed.data) ? etag : undefined;
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
      startedAt = Date.now();
      followChanges();
      await refresh();
    },
    async stop() {
      abort.abort();
      clearInterval(timer);
      clearTimeout(confirmTimer);
      if (subscriber) await closeRedis(subscriber);
    },
    refresh,
    loaded: () => isLoaded,
    services: () => current.services,
    categories: () => categoryList,
    instances: (service) => byService.get(service)?.instances ?? [],
    openApiFragments: () => current.services.map((s) => ({ service: s.service, ...(s.category ? { category: s.category } : {}), fragment: s.openapi })),
    version: () => version,
    pickInstance(service, exclude) {
      const instances = byService.get(service)?.instances ?? [];
      const start = nextIndex.get(service) ?? 0;
      for (let offset = 0; offset < instances.length; offset++) {
        const index = (start + offset) % instances.length;
        const candidate = instances[index];
        if (!candidate || exclude?.has(candidate.instance_id)) continue;
        nextIndex.set(service, index + 1);
        return candidate;
      }
      return undefined;
    },
  };
}
