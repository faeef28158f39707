/** The variable a launcher puts the plan in (JSON: an array of `{ name, app, env }`, in start-up order). */
export const SERVICES_PLAN_VARIABLE = 'MT_SERVICES';

export const HOSTED_APPS = ['registry-service', 'auth-service', 'catalog-service', 'scrobble-service', 'gateway'] as const;
export type HostedApp = (typeof HOSTED_APPS)[number];

export interface PlannedService {
  /** `gateway`, `auth-service`, `registry-service`, `catalog-movies`... */
  name: string;
  app: HostedApp;
  /** The whole environment this service reads its configuration from. */
  env: NodeJS.ProcessEnv;
}

/** Variables that belong to one service: never passed from the host's environment to every service. */
const OWN_VARIABLES = ['PORT', 'HOST', 'METRICS_PORT', 'CATEGORY', 'ADVERTISED_URL', 'MONGO_DB_NAME', 'INSTANCE_ID'];

const DEFAULT_CATEGORIES = 'movies,tvshows,books';
/** Ports of the service map (README.md): every service but the gateway listens on the loopback only. */
const INTERNAL_PORTS = { 'auth-service': 3001, 'registry-service': 3002, 'scrobble-service': 3020 } as const;
const CATALOG_PORTS: Record<string, number> = { movies: 3011, tvshows: 3012, books: 3013 };
const METRICS_PORTS_FROM = 9464;

/**
 * What the host runs: the launcher's plan in MT_SERVICES (each service's own variables over the host's
 * environment), else the whole stack from the environment alone (`CATEGORIES`, default movies,tvshows,books;
 * the gateway on `PORT`/`HOST`, its metrics on `METRICS_PORT`, the others on the loopback at their usual
 * ports, metrics ports after the gateway's). Throws with a message an operator can act on.
 */
export function planFrom(env: NodeJS.ProcessEnv): PlannedService[] {
  const shared: NodeJS.ProcessEnv = { ...env };
  delete shared[SERVICES_PLAN_VARIABLE];
  for (const name of OWN_VARIABLES) delete shared[name];
  const given = env[SERVICES_PLAN_VARIABLE];
  const own = given ? parsePlan(given) : defaultPlan(env);
  return own.map((service) => ({ ...service, env: { ...shared, ...service.env } }));
}

function parsePlan(text: string): PlannedService[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${SERVICES_PLAN_VARIABLE} is not JSON: ${(error as Error).message}`);
  }
  const valid = (entry: unknown): entry is PlannedService => {
    const candidate = entry as Partial<PlannedService> | null;
    return (
      typeof candidate?.name === 'string' &&
      (HOSTED_APPS as readonly unknown[]).includes(candidate.app) &&
      typeof candidate.env === 'object' &&
      candidate.env !== null &&
      Object.values(candidate.env).every((value) => typeof value === 'string')
    );
  };
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(valid)) {
    throw new Error(`${SERVICES_PLAN_VARIABLE} must be a non-empty JSON array of { name, app (${HOSTED_APPS.join(', ')}), env (strings) }`);
  }
  return parsed;
}

function defaultPlan(env: NodeJS.ProcessEnv): PlannedService[] {
  const categories = (env['CATEGORIES'] || DEFAULT_CATEGORIES).split(',').map((category) => category.trim()).filter(Boolean);
  const unknown = categories.filter((category) => !(category in CATALOG_PORTS));
  if (unknown.length) throw new Error(`CATEGORIES: unknown ${unknown.join(', ')} (known: ${Object.keys(CATALOG_PORTS).join(', ')})`);
  const gatewayMetrics = Number(env['METRICS_PORT'] || METRICS_PORTS_FROM);
  let nextMetrics = gatewayMetrics === 0 ? 0 : gatewayMetrics + 1;
  const metricsPort = () => String(nextMetrics === 0 ? 0 : nextMetrics++);
  const loopback = (port: number) => ({ PORT: String(port), HOST: '127.0.0.1', ADVERTISED_URL: `http://127.0.0.1:${port}`, METRICS_PORT: metricsPort() });
  const links = {
    AUTH_URL: `http://127.0.0.1:${INTERNAL_PORTS['auth-service']}`,
    REGISTRY_URL: `http://127.0.0.1:${INTERNAL_PORTS['registry-service']}`,
  };
  return [
    { name: 'registry-service', app: 'registry-service', env: { ...loopback(INTERNAL_PORTS['registry-service']), ...links } },
    { name: 'auth-service', app: 'auth-service', env: { ...loopback(INTERNAL_PORTS['auth-service']), ...links } },
    ...categories.map((category): PlannedService => ({
      name: `catalog-${category}`,
      app: 'catalog-service',
      env: { ...loopback(CATALOG_PORTS[category] ?? 0), ...links, CATEGORY: category },
    })),
    { name: 'scrobble-service', app: 'scrobble-service', env: { ...loopback(INTERNAL_PORTS['scrobble-service']), ...links } },
    {
      name: 'gateway',
      app: 'gateway',
      env: { ...links, PORT: env['PORT'] || '8080', HOST: env['HOST'] || '0.0.0.0', METRICS_PORT: String(gatewayMetrics) },
    },
  ];
}
