import { randomBytes } from 'node:crypto';
import { provideMongo, provideRedis, type ProvideOptions, type ProvidedStore } from './embedded-stores';
import { freePort, portIsFree } from './free-port';
import { formatLogLine, parseLogLine, type LogSink } from './log-format';
import { describeExit, spawnService, type ExitInfo, type ServiceProcess } from './service-process';
import { spawnHost, type PlannedService } from './single-process';
import { APPS, findWorkspaceRoot, type AppName } from './workspace';

/** The service map of the brief: where each process listens unless told otherwise. */
export const DEFAULT_PORTS = {
  gateway: 8080,
  'auth-service': 3001,
  'registry-service': 3002,
  'scrobble-service': 3020,
  catalog: { movies: 3011, tvshows: 3012, books: 3013 } as Record<string, number>,
} as const;

export const DEFAULT_CATEGORIES = ['movies', 'tvshows', 'books'] as const;

/**
 * The services' minimum (INTERNAL_SECRET_MIN_LENGTH of @mt/config, which this buildable lib may not import;
 * a spec keeps the two equal).
 */
export const INTERNAL_SECRET_MIN_LENGTH = 32;

/**
 * Metrics ports in `ports: 'default'` mode: one machine, so one each from Prometheus' 9464 up, in this order
 * (then one per category, then the scrobble service); a taken one is replaced by a free port. Extra catalog instances get free ports.
 */
export const DEFAULT_METRICS_PORTS_FROM = 9464;
const METRICS_PORT_ORDER = ['gateway', 'auth-service', 'registry-service'] as const;

export interface StackOptions {
  /**
   * waitReady also waits until the gateway's /health lists every started service as routed (default true;
   * false for stand-in apps that serve no such report).
   */
  waitForRoutes?: boolean;
  /** Workspace root holding `dist/apps/<app>/main.js` (default: found from this file or the cwd). */
  rootDir?: string;
  /** Gateway port: default 8080 (a free port when 8080 is taken); 0 = a free port. */
  gatewayPort?: number;
  /** Ports of the other services: `default` = the service map (a free port where taken), `free` = free ports. */
  ports?: 'default' | 'free';
  /** Bind address of every service (default 127.0.0.1: nothing is exposed beyond this machine). */
  host?: string;
  /** Catalog categories, one catalog-service process each (default movies, tvshows, books). */
  categories?: readonly string[];
  /** Which apps to start (default all); e.g. only `registry-service` while others are being built. */
  apps?: readonly AppName[];
  /** Store URLs; default: MONGO_URL / REDIS_URL from `baseEnv`, else an embedded store (see provideMongo/provideRedis). */
  mongoUrl?: string;
  redisUrl?: string;
  /** REDIS_KEY_PREFIX of every process (isolates a stack in a shared Redis); default: inherited or the services' `mt:`. */
  redisKeyPrefix?: string;
  /** MONGO_DB_NAME of auth (default `auth`), of each catalog (default `catalog_<category>`) and of scrobble (default `scrobble`). */
  mongoDbNames?: { auth?: string; catalog?: (category: string) => string; scrobble?: string };
  /** Shared INTERNAL_SECRET; default: INTERNAL_SECRET of `baseEnv` (at least 32 characters), else 48 random characters. */
  internalSecret?: string;
  /** LOG_LEVEL of every process (default: inherited or the services' `info`). */
  logLevel?: string;
  /** Extra variables for every process. */
  env?: NodeJS.ProcessEnv;
  /** Extra variables per app (applied after `env`). */
  appEnv?: Partial<Record<AppName, NodeJS.ProcessEnv>>;
  /** Every output line of every process; default: readable lines on stdout (see formatLogLine). */
  onLog?: LogSink;
  /** Called when a process exits on its own (not through stop/restart/kill of this stack). */
  onUnexpectedExit?: (service: ServiceProcess, exit: ExitInfo) => void;
  /** The environment children inherit and store URLs are read from (default process.env). */
  baseEnv?: NodeJS.ProcessEnv;
  /**
   * Run the services in one process (the all-in-one host, dist/apps/all-in-one) instead of one each: same
   * ports, variables and names; every handle then has the host's pid, and stopping one stops the host.
   * Extra catalog instances (`startCatalogInstance`) are still processes of their own.
   */
  singleProcess?: boolean;
}

export interface Stack {
  /** `http://127.0.0.1:<gateway port>` (undefined when the gateway is not among `apps`). */
  readonly gatewayUrl: string | undefined;
  readonly mongoUrl: string;
  readonly redisUrl: string;
  readonly redisKeyPrefix: string | undefined;
  readonly internalSecret: string;
  /** Where the secret came from: the `internalSecret` option, the environment's INTERNAL_SECRET, or generated. */
  readonly internalSecretSource: 'option' | 'environment' | 'generated';
  readonly mongoDbNames: { auth: string; catalog: Record<string, string>; scrobble: string };
  /** True when the services run in one process (`singleProcess`). */
  readonly singleProcess: boolean;
  /** Every service started so far (including extra catalog instances); in single-process mode they share a pid. */
  readonly processes: readonly ServiceProcess[];
  /** A process by name: `gateway`, `auth-service`, `registry-service`, `catalog-movies`, `catalog-movies-2`... */
  process(name: string): ServiceProcess;
  /** Resolves when every process answers /readyz 200; rejects naming the ones that are not (or crashed). */
  waitReady(timeoutMs?: number): Promise<void>;
  /** Another catalog instance of `category` (scaling tests); resolves once it is spawned (call its waitReady). */
  startCatalogInstance(category: string, options?: { port?: number; env?: NodeJS.ProcessEnv }): Promise<ServiceProcess>;
  /**
   * Another instance of the gateway, the auth, scrobble or registry service (`<app>-2`…) on free ports, with the
   * stack's stores and secret; `env` names what it talks to (e.g. REGISTRY_URL of another registry).
   */
  startInstance(app: 'gateway' | 'auth-service' | 'registry-service' | 'scrobble-service', options?: { env?: NodeJS.ProcessEnv }): Promise<ServiceProcess>;
  /** SIGTERM every process (front to back), SIGKILL stragglers after 10 s, then stop the stores it started. */
  stop(): Promise<void>;
}

const catalogProcessName = (category: string) => `catalog-${category}`;

/**
 * argon2id allocates ~19 MiB per hash. With glibc's dynamic mmap threshold those blocks soon come from the
 * malloc arenas and stay resident after a burst of logins; a fixed threshold keeps them
 * mmapped, so each is returned to the OS when its hash is done. `hugetlb=1` maps them in transparent huge
 * pages: a fresh 19 MiB block then costs ~10 page faults instead of ~4 900, which matters on VMs where a
 * fault is expensive (figures: bench/README.md "Auth service memory").
 * The Dockerfile's auth-service target sets the same. An operator's own GLIBC_TUNABLES wins.
 */
export const AUTH_GLIBC_TUNABLES = 'glibc.malloc.mmap_threshold=4194304:glibc.malloc.hugetlb=1';
const authMallocEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  env['GLIBC_TUNABLES'] ? {} : { GLIBC_TUNABLES: AUTH_GLIBC_TUNABLES };

/**
 * V8 options of every service but the gateway (GATEWAY_NODE_OPTIONS): a young generation of at most 2 × 8 MiB
 * instead of V8's 2 × 16 MiB. A service grows it to the maximum during start-up and never gives it back; at
 * 8 MiB each keeps less resident when idle at no CPU cost above the machine's drift, while 4 MiB saved more
 * but cost the catalog CPU per request (figures: bench/README.md). The images and the Kubernetes manifests set
 * the same (a deploy check keeps them equal). An operator's NODE_OPTIONS is kept, and this flag added unless it
 * sets its own.
 */
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=8';
/**
 * The gateway's V8 options: a young generation of 2 × 16 MiB. Every client request passes through it, so it
 * collects its young generation most often, and there the smaller size cost CPU per proxied request
 * for a few MB resident (figures: bench/README.md, "Figures behind decisions").
 */
export const GATEWAY_NODE_OPTIONS = '--max-semi-space-size=16';
/** The V8 options the launcher, the images and the manifests give `app`'s process. */
export const nodeOptionsOf = (app: string): string => (app === 'gateway' ? GATEWAY_NODE_OPTIONS : SERVICE_NODE_OPTIONS);
/** `options` added to the environment's NODE_OPTIONS, unless those already set `flag` (the operator's choice wins). */
const withNodeOptions = (env: NodeJS.ProcessEnv, options: string, flag: string): NodeJS.ProcessEnv => {
  const own = env['NODE_OPTIONS'] ?? '';
  return own.includes(flag) ? env : { ...env, NODE_OPTIONS: `${own} ${options}`.trim() };
};
const withServiceNodeOptions = (env: NodeJS.ProcessEnv, app?: AppName): NodeJS.ProcessEnv =>
  withNodeOptions(env, app ? nodeOptionsOf(app) : SERVICE_NODE_OPTIONS, '--max-semi-space-size');

/**
 * V8 options of the single process (with SERVICE_NODE_OPTIONS): an old generation capped at 512 MiB. Below
 * V8's large-heap threshold it grows the heap by smaller steps between collections, so a burst of requests
 * no longer piles up garbage in the old generation before the next one (figures: bench/README.md
 * "Single-process mode"); the cap is over twice what the bench's load uses. The all-in-one image sets the
 * same. An operator's own --max-old-space-size wins.
 */
export const SINGLE_PROCESS_NODE_OPTIONS = '--max-old-space-size=512';
export const withSingleProcessNodeOptions = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  withNodeOptions(env, SINGLE_PROCESS_NODE_OPTIONS, '--max-old-space-size');

const tailOf = (service: ServiceProcess, lines = 8): string => {
  const tail = service.recentOutput().slice(-lines);
  return tail.length ? `; last output:\n    ${tail.join('\n    ')}` : '';
};

/** Resolves once the gateway's public /health lists every name in `names` as healthy; rejects at `deadline`. */
async function waitUntilRouted(gatewayUrl: string, names: readonly string[], deadline: number): Promise<void> {
  let missing = [...names];
  while (missing.length) {
    try {
      const response = await fetch(`${gatewayUrl}/health`, { signal: AbortSignal.timeout(5000) });
      const { services = {} } = (await response.json()) as { services?: Record<string, { status?: string }> };
      missing = names.filter((name) => services[name]?.status !== 'healthy');
    } catch {
      // Not answering yet: try again until the deadline.
    }
    if (!missing.length) return;
    if (Date.now() > deadline) throw new Error(`the stack is not ready: the gateway does not route ${missing.join(', ')} yet`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Starts the whole stack as separate processes from the built apps. Resolves once all are spawned. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const rootDir = options.rootDir ?? findWorkspaceRoot();
  const baseEnv = options.baseEnv ?? process.env;
  const host = options.host ?? '127.0.0.1';
  const apps = new Set<AppName>(options.apps ?? APPS);
  const categories = [...(options.categories ?? DEFAULT_CATEGORIES)];
  const onLog: LogSink = options.onLog ?? printLogLine([...apps, ...categories.map(catalogProcessName)]);
  const note = (text: string) => onLog(parseLogLine('stack', 'stdout', text));
  // Before anything starts: a secret the services would refuse must not cost a start-up.
  const secret = chooseInternalSecret(options.internalSecret, baseEnv['INTERNAL_SECRET']);

  const stores: ProvidedStore[] = [];
  const stopStores = () => Promise.all(stores.map((store) => store.stop().catch(() => undefined)));
  const provide = async (
    given: string | undefined,
    name: string,
    provider: (env: NodeJS.ProcessEnv, options: ProvideOptions) => Promise<ProvidedStore>,
  ) => {
    if (given) return given;
    const store = await provider(baseEnv, { note });
    stores.push(store);
    note(`${name}: ${store.url} (${store.source === 'env' ? 'from the environment' : `started: ${store.source}`})`);
    return store.url;
  };
  // allSettled: when one store fails, the other may still be starting and must be stopped too.
  const [mongo, redis] = await Promise.allSettled([
    provide(options.mongoUrl, 'MongoDB', provideMongo),
    provide(options.redisUrl, 'Redis', provideRedis),
  ]);
  if (mongo.status === 'rejected' || redis.status === 'rejected') {
    await stopStores();
    throw (mongo.status === 'rejected' ? mongo.reason : (redis as PromiseRejectedResult).reason) as Error;
  }
  const mongoUrl = mongo.value;
  const redisUrl = redis.value;

  /** `preferred` (0 = free); else the default port, or a free one in `ports: 'free'` mode or when it is taken. */
  const choosePort = async (preferred: number | undefined, fallbackDefault: number, isGateway = false): Promise<number> => {
    if (preferred === 0 || (!isGateway && options.ports === 'free' && preferred === undefined)) return freePort();
    const port = preferred ?? fallbackDefault;
    if (preferred !== undefined || (await portIsFree(port, host))) return port;
    const other = await freePort();
    note(`port ${port} is taken; using ${other}`);
    return other;
  };

  const internalSecret = secret.value;
  const redisKeyPrefix = options.redisKeyPrefix ?? baseEnv['REDIS_KEY_PREFIX'];
  const mongoDbNames = {
    auth: options.mongoDbNames?.auth ?? 'auth',
    scrobble: options.mongoDbNames?.scrobble ?? 'scrobble',
    catalog: Object.fromEntries(
      categories.map((category) => [category, options.mongoDbNames?.catalog?.(category) ?? `catalog_${category}`]),
    ),
  };
  const gatewayPort = apps.has('gateway') ? await choosePort(options.gatewayPort, DEFAULT_PORTS.gateway, true) : undefined;
  const authPort = await choosePort(undefined, DEFAULT_PORTS['auth-service']);
  const registryPort = await choosePort(undefined, DEFAULT_PORTS['registry-service']);
  const scrobblePort = apps.has('scrobble-service') ? await choosePort(undefined, DEFAULT_PORTS['scrobble-service']) : 0;
  const metricsPorts = new Map<string, number>();
  for (const [index, name] of [...METRICS_PORT_ORDER, ...categories.map(catalogProcessName), 'scrobble-service'].entries()) {
    metricsPorts.set(name, await choosePort(undefined, DEFAULT_METRICS_PORTS_FROM + index));
  }
  const authUrl = `http://127.0.0.1:${authPort}`;
  const registryUrl = `http://127.0.0.1:${registryPort}`;

  const commonEnv: NodeJS.ProcessEnv = {
    ...baseEnv,
    ...options.env,
    INTERNAL_SECRET: internalSecret,
    MONGO_URL: mongoUrl,
    REDIS_URL: redisUrl,
    AUTH_URL: authUrl,
    REGISTRY_URL: registryUrl,
    ...(redisKeyPrefix ? { REDIS_KEY_PREFIX: redisKeyPrefix } : {}),
    ...(options.logLevel ? { LOG_LEVEL: options.logLevel } : {}),
  };
  // Variables that belong to one service must not leak from the launcher's environment into another.
  for (const name of ['PORT', 'HOST', 'CATEGORY', 'ADVERTISED_URL', 'MONGO_DB_NAME']) delete commonEnv[name];
  const envFor = (app: AppName, own: NodeJS.ProcessEnv) => withServiceNodeOptions({ ...commonEnv, ...own, ...options.appEnv?.[app] }, app);
  /** A service's own variables: over the common ones in its process, or in the host's plan. */
  const ownEnv = (app: AppName, own: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...own, ...options.appEnv?.[app] });

  const processes: ServiceProcess[] = [];
  let stopping = false;
  const onExit = (service: ServiceProcess, exit: ExitInfo, requested: boolean) => {
    if (requested || stopping) return;
    if (options.onUnexpectedExit) options.onUnexpectedExit(service, exit);
    else note(`${service.name} ${describeExit(exit)}`);
  };
  // Single-process mode: the first services are planned (their own variables only), then hosted together.
  let planned: PlannedService[] | undefined = options.singleProcess ? [] : undefined;
  const hosted = new Set<ServiceProcess>();
  const launch = (name: string, app: AppName, port: number, env: NodeJS.ProcessEnv, metricsPort?: number): ServiceProcess | undefined => {
    if (planned) {
      planned.push({ name, app, port, metricsPort: metricsPort ?? metricsPorts.get(name), env });
      return undefined;
    }
    const service = spawnService({ name, app, port, metricsPort: metricsPort ?? metricsPorts.get(name), host, env: envFor(app, env), rootDir, onLog, onExit });
    processes.push(service);
    return service;
  };

  const instanceCount = new Map<string, number>();
  const launchCatalog = (category: string, port: number, extraEnv: NodeJS.ProcessEnv = {}, metricsPort?: number) => {
    const count = (instanceCount.get(category) ?? 0) + 1;
    instanceCount.set(category, count);
    const name = count === 1 ? catalogProcessName(category) : `${catalogProcessName(category)}-${count}`;
    return launch(
      name,
      'catalog-service',
      port,
      ownEnv('catalog-service', {
        CATEGORY: category,
        ADVERTISED_URL: `http://127.0.0.1:${port}`,
        MONGO_DB_NAME: mongoDbNames.catalog[category] ?? options.mongoDbNames?.catalog?.(category) ?? `catalog_${category}`,
        ...extraEnv,
      }),
      metricsPort,
    );
  };

  try {
    if (apps.has('registry-service')) launch('registry-service', 'registry-service', registryPort, ownEnv('registry-service', {}));
    if (apps.has('auth-service')) {
      launch('auth-service', 'auth-service', authPort, ownEnv('auth-service', { MONGO_DB_NAME: mongoDbNames.auth, ADVERTISED_URL: authUrl, ...authMallocEnv(commonEnv) }));
    }
    if (apps.has('catalog-service')) {
      for (const category of categories) {
        launchCatalog(category, await choosePort(undefined, DEFAULT_PORTS.catalog[category] ?? 0));
      }
    }
    if (apps.has('scrobble-service')) {
      launch('scrobble-service', 'scrobble-service', scrobblePort, ownEnv('scrobble-service', { MONGO_DB_NAME: mongoDbNames.scrobble, ADVERTISED_URL: `http://127.0.0.1:${scrobblePort}` }));
    }
    if (gatewayPort !== undefined) launch('gateway', 'gateway', gatewayPort, ownEnv('gateway', {}));
    if (planned?.length) {
      // GLIBC_TUNABLES is read by the C library at process start: the host takes the auth service's.
      const hostEnv = withSingleProcessNodeOptions(withServiceNodeOptions({ ...commonEnv, ...(apps.has('auth-service') ? authMallocEnv(commonEnv) : {}) }));
      const { services } = spawnHost({ services: planned, host, env: hostEnv, rootDir, onLog, onExit });
      for (const service of services) hosted.add(service);
      processes.push(...services);
    }
    planned = undefined; // from here on (extra instances), one process each
  } catch (error) {
    await Promise.all(processes.map((service) => service.stop()));
    await stopStores();
    throw error;
  }

  // What the gateway must route before the stack counts as ready: services register in the background, so a
  // process being ready does not mean the gateway's route table has it yet.
  const routedNames = () => [
    ...(apps.has('auth-service') && apps.has('registry-service') ? ['service:auth'] : []),
    ...(apps.has('catalog-service') && apps.has('registry-service') ? [...instanceCount.keys()].map((category) => `catalog:${category}`) : []),
    ...(apps.has('scrobble-service') && apps.has('registry-service') ? ['service:scrobble'] : []),
  ];

  const stack: Stack = {
    gatewayUrl: gatewayPort === undefined ? undefined : `http://127.0.0.1:${gatewayPort}`,
    mongoUrl,
    redisUrl,
    redisKeyPrefix,
    internalSecret,
    internalSecretSource: secret.source,
    mongoDbNames,
    singleProcess: Boolean(options.singleProcess),
    processes,
    process(name) {
      const found = processes.find((service) => service.name === name);
      if (!found) throw new Error(`no process named ${name} (have: ${processes.map((s) => s.name).join(', ')})`);
      return found;
    },
    async waitReady(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      // Fails as soon as a process exits: the others may be waiting for it and would only time out.
      const crashed = new Promise<never>((_, reject) => {
        for (const service of processes) {
          void service.exited.then((exit) =>
            reject(new Error(`${service.name} ${describeExit(exit)} before the stack was ready${tailOf(service)}`)),
          );
        }
      });
      crashed.catch(() => undefined);
      const all = Promise.allSettled(processes.map((service) => service.waitReady(timeoutMs)));
      const results = await Promise.race([all, crashed]).catch((error: Error) => [
        { status: 'rejected' as const, reason: error },
      ]);
      const problems = results.flatMap((result) => (result.status === 'rejected' ? [(result.reason as Error).message] : []));
      if (problems.length) throw new Error(`the stack is not ready:\n  - ${problems.join('\n  - ')}`);
      if (stack.gatewayUrl && options.waitForRoutes !== false) await waitUntilRouted(stack.gatewayUrl, routedNames(), deadline);
    },
    async startInstance(app, instanceOptions = {}) {
      const port = await freePort();
      const count = processes.filter((service) => service.app === app).length + 1;
      const advertised = { ADVERTISED_URL: `http://127.0.0.1:${port}` };
      const own: NodeJS.ProcessEnv =
        app === 'auth-service'
          ? { MONGO_DB_NAME: mongoDbNames.auth, ...advertised, ...authMallocEnv(commonEnv) }
          : app === 'scrobble-service'
            ? { MONGO_DB_NAME: mongoDbNames.scrobble, ...advertised }
            : {};
      const instance = launch(`${app}-${count}`, app, port, ownEnv(app, { ...own, ...instanceOptions.env }), await freePort());
      if (!instance) throw new Error(`${app}-${count}: not started`);
      return instance;
    },
    async startCatalogInstance(category, instanceOptions = {}) {
      const port = instanceOptions.port ?? (await freePort());
      const instance = launchCatalog(category, port, instanceOptions.env, await freePort());
      if (!instance) throw new Error(`catalog-${category}: not started`);
      return instance;
    },
    async stop() {
      stopping = true;
      // Front to back: the gateway first (no new traffic), then catalogs and auth (catalogs deregister
      // from the registry), the registry last; then the stores this stack started.
      // Single-process mode: the extra instances (processes of their own) first, while the hosted registry
      // still answers their deregistration; then the host, which stops its services in the same order.
      const waves = hosted.size
        ? [processes.filter((s) => !hosted.has(s)), processes.filter((s) => hosted.has(s))]
        : [
            processes.filter((s) => s.app === 'gateway'),
            processes.filter((s) => s.app === 'catalog-service' || s.app === 'auth-service' || s.app === 'scrobble-service'),
            processes.filter((s) => s.app === 'registry-service'),
          ];
      for (const wave of waves) await Promise.all(wave.map((service) => service.stop(hosted.has(service) ? 30_000 : 10_000)));
      await stopStores();
    },
  };
  return stack;
}

/**
 * The explicit option, else the environment's INTERNAL_SECRET (so other instances can join with the same
 * one), else a random one. A short one is refused as the services would refuse it, before anything starts.
 */
function chooseInternalSecret(
  option: string | undefined,
  fromEnv: string | undefined,
): { value: string; source: Stack['internalSecretSource'] } {
  const [value, source] = option ? [option, 'option' as const] : fromEnv ? [fromEnv, 'environment' as const] : [undefined, 'generated' as const];
  if (value === undefined) return { value: randomBytes(36).toString('base64url'), source };
  if (value.length < INTERNAL_SECRET_MIN_LENGTH) {
    throw new Error(
      `INTERNAL_SECRET${source === 'environment' ? ' (from the environment)' : ''} must be at least ${INTERNAL_SECRET_MIN_LENGTH} characters; ` +
        'every service refuses a shorter one. Generate one with: openssl rand -base64 48 (or unset it: the launcher then makes one).',
    );
  }
  return { value, source };
}

/** The default log sink: one readable line per log line, coloured when stdout is a terminal. */
export function printLogLine(names: readonly string[] = []): LogSink {
  const colour = Boolean(process.stdout.isTTY) && !process.env['NO_COLOR'];
  const nameWidth = Math.max(5, ...names.map((name) => name.length));
  return (line) => {
    process.stdout.write(`${formatLogLine(line, { colour, nameWidth })}\n`);
  };
}
