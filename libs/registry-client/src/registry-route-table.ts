import { INTERNAL_PATHS, RouteTableSchema, redisKeys, type CategoryRecord, type LiveInstance, type RoutedService, type RouteTableSnapshot } from '@mt/contracts';
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
export class RegistryRouteTable implements RouteTable {
  private readonly refreshIntervalMs: number;
  private readonly requestTimeoutMs: number;
  private readonly emptyConfirmMs: number;
  private readonly startupGraceMs: number;
  private readonly log: Logger;
  private readonly abort = new AbortController();

  private current: RouteTableSnapshot = EMPTY;
  private serialized = JSON.stringify(EMPTY);
  private isLoaded = false;
  private byService = new Map<string, RoutedService>();
  private categoryList: CategoryRecord[] = [];
  private tableVersion = 0;
  private readonly nextIndex = new Map<string, number>();
  private registryReachable: boolean | undefined;
  /** Whether an outage was reported at WARN: only then is the recovery worth an INFO line. */
  private outageReported = false;
  private startedAt = Date.now();
  private subscriber: Redis | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When a table without any live instance was first seen while ours had some. */
  private emptySince: number | undefined;
  private confirmTimer: NodeJS.Timeout | undefined;
  /** The ETag of the table in use: an unchanged table then costs a 304, not a parse of every manifest. */
  private currentEtag: string | undefined;
  // One load at a time; a refresh asked for during a load runs once more after it, so a notification
  // that arrives mid-load is never answered with a table read before the change.
  private running: Promise<boolean> | undefined;
  private queued: Promise<boolean> | undefined;

  constructor(private readonly options: RouteTableOptions) {
    this.refreshIntervalMs = options.refreshIntervalMs ?? 5000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 2000;
    this.emptyConfirmMs = options.emptyConfirmMs ?? 10_000;
    this.startupGraceMs = options.startupGraceMs ?? 10_000;
    this.log = options.logger.child({ component: 'route-table' });
  }

  async start(): Promise<void> {
    if (this.subscriber || this.abort.signal.aborted) return;
    this.startedAt = Date.now();
    this.followChanges();
    await this.refresh();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    clearInterval(this.timer);
    clearTimeout(this.confirmTimer);
    if (this.subscriber) await closeRedis(this.subscriber);
  }

  refresh(): Promise<boolean> {
    if (this.abort.signal.aborted) return Promise.resolve(false);
    if (!this.running) {
      this.running = this.load().finally(() => (this.running = undefined));
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.refresh();
    });
    return this.queued;
  }

  loaded(): boolean {
    return this.isLoaded;
  }

  services(): readonly RoutedService[] {
    return this.current.services;
  }

  categories(): CategoryRecord[] {
    return this.categoryList;
  }

  instances(service: string): readonly LiveInstance[] {
    return this.byService.get(service)?.instances ?? [];
  }

  openApiFragments(): ReturnType<RouteTable['openApiFragments']> {
    return this.current.services.map((s) => ({ service: s.service, ...(s.category ? { category: s.category } : {}), fragment: s.openapi }));
  }

  version(): number {
    return this.tableVersion;
  }

  pickInstance(service: string, exclude?: ReadonlySet<string>): LiveInstance | undefined {
    const instances = this.byService.get(service)?.instances ?? [];
    const start = this.nextIndex.get(service) ?? 0;
    for (let offset = 0; offset < instances.length; offset++) {
      const index = (start + offset) % instances.length;
      const candidate = instances[index];
      if (!candidate || exclude?.has(candidate.instance_id)) continue;
      this.nextIndex.set(service, index + 1);
      return candidate;
    }
    return undefined;
  }

  /** Takes the registry's table; false while a table without any live instance awaits confirmation. */
  private apply(snapshot: RouteTableSnapshot): boolean {
    this.isLoaded = true;
    if (instanceCount(snapshot) === 0 && instanceCount(this.current) > 0) {
      const now = Date.now();
      this.emptySince ??= now;
      if (now - this.emptySince < this.emptyConfirmMs) {
        this.log.warn({ confirm_in_ms: this.emptySince + this.emptyConfirmMs - now }, 'the registry reports no live instance at all; keeping the current table until that is confirmed');
        this.confirmTimer ??= setTimeout(() => {
          this.confirmTimer = undefined;
          void this.refresh();
        }, this.emptyConfirmMs - (now - this.emptySince) + 10);
        this.confirmTimer.unref();
        return false;
      }
    }
    this.emptySince = undefined;
    const json = JSON.stringify(snapshot);
    if (json === this.serialized) return true;
    this.current = snapshot;
    this.serialized = json;
    this.byService = new Map(snapshot.services.map((service) => [service.service, service]));
    this.categoryList = snapshot.services.filter((s) => s.category && s.instances.length > 0).map((s) => s.category as CategoryRecord);
    this.tableVersion += 1;
    this.log.debug({ services: snapshot.services.map((s) => ({ service: s.service, instances: s.instances.length })) }, 'route table changed');
    return true;
  }

  private noteReachable(reachable: boolean, reason?: string): void {
    if (reachable) {
      if (this.outageReported) this.log.info('registry reachable again');
      else if (this.registryReachable === false) this.log.debug('registry reachable');
      this.outageReported = false;
    } else {
      const details = { registry: this.options.registryUrl, reason };
      // Services start side by side: a registry not yet listening during the first seconds is no problem.
      const starting = !this.isLoaded && Date.now() - this.startedAt < this.startupGraceMs;
      if (!this.outageReported && !starting) {
        this.log.warn(details, 'registry unreachable; keeping the last good route table');
        this.outageReported = true;
      } else this.log.debug(details, 'registry still unreachable');
    }
    this.registryReachable = reachable;
  }

  private async load(): Promise<boolean> {
    const { registryUrl, internalSecret } = this.options;
    try {
      const { status, body, etag } = await callRegistry(registryUrl, internalSecret, INTERNAL_PATHS.registryRoutes, {
        method: 'GET',
        timeoutMs: this.requestTimeoutMs,
        signal: this.abort.signal,
        ifNoneMatch: this.currentEtag,
      });
      if (status === 304 && this.currentEtag !== undefined) {
        this.noteReachable(true);
        return true;
      }
      if (status !== 200) throw new Error(`registry answered ${status}`);
      const parsed = RouteTableSchema.safeParse(body);
      if (!parsed.success) throw new Error('registry answered an invalid route table');
      this.currentEtag = this.apply(parsed.data) ? etag : undefined;
      this.noteReachable(true);
      return true;
    } catch (error) {
      if (!this.abort.signal.aborted) this.noteReachable(false, reasonOf(error));
      return false;
    }
  }

  private followChanges(): void {
    const { redisUrl, redisKeyPrefix } = this.options;
    this.subscriber = createRedis({ url: redisUrl, logger: this.log, name: 'gateway-route-table', blocking: true });
    this.subscriber.on('message', () => void this.refresh());
    // After a reconnect notifications may have been missed: reload.
    this.subscriber.on('ready', () => void this.refresh());
    this.subscriber.subscribe(redisKeys(redisKeyPrefix).registryChanges()).catch((error: unknown) => this.log.warn({ reason: reasonOf(error) }, 'could not subscribe to registry changes'));
    this.timer = setInterval(() => void this.refresh(), this.refreshIntervalMs);
    this.timer.unref();
  }
}
