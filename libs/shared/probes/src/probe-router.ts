import { rejectOtherMethods } from '@mt/errors';
import { Router, type Response } from 'express';
import type { Lifecycle } from './lifecycle';
import { withTimeout } from './with-timeout';

export interface UpstreamHealth {
  status: 'healthy' | 'unhealthy';
  [detail: string]: unknown;
}

/** The gateway's upstreams, told twice: once for anyone, once for operators. */
export interface UpstreamsReport {
  /** The public /health: each upstream (auth, registry, each category) with its status only. */
  summary: Record<string, UpstreamHealth>;
  /** The metrics port's /health: every instance, with its id, address and version. */
  detailed: Record<string, UpstreamHealth>;
}

export interface ProbeOptions {
  service: string;
  version: string;
  lifecycle: Lifecycle;
  /** Pings the service's own database; rejects when it is unreachable. */
  pingDatabase: () => Promise<unknown>;
  /** Gateway only: each upstream's health for /health. */
  upstreams?: () => Promise<UpstreamsReport>;
  pingTimeoutMs?: number;
}

/** `public`: what any client may see (the API port); `detailed`: for operators (the metrics port). */
export type HealthView = 'public' | 'detailed';

export interface HealthAnswer {
  status: 200 | 503;
  body: Record<string, unknown>;
}

const HEALTHY = { status: 'healthy', database: 'connected' } as const;
const UNREACHABLE = { status: 'unhealthy', error: 'database unreachable' } as const;

const databaseCheck =
  ({ pingDatabase, pingTimeoutMs = 1000 }: ProbeOptions) =>
  async (): Promise<boolean> => {
    try {
      await withTimeout(Promise.resolve().then(pingDatabase), pingTimeoutMs, 'database ping');
      return true;
    } catch {
      return false;
    }
  };

/** /health: the database ping plus service, version, uptime and (gateway) the upstreams in the given view. */
export function createHealthReport(options: ProbeOptions): (view: HealthView) => Promise<HealthAnswer> {
  const databaseUp = databaseCheck(options);
  return async (view) => {
    const [up, upstreams] = await Promise.all([databaseUp(), options.upstreams?.()]);
    const about = {
      service: options.service,
      version: options.version,
      uptime_seconds: Math.floor((Date.now() - options.lifecycle.startedAtMs) / 1000),
      ...(upstreams ? { services: view === 'detailed' ? upstreams.detailed : upstreams.summary } : {}),
    };
    return up
      ? { status: 200, body: { ...HEALTHY, ...about } }
      : { status: 503, body: { ...UNREACHABLE, ...about } };
  };
}

/** The probes' paths, at the root of every service (express matches them case-insensitively). */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/livez', '/startupz', '/readyz', '/healthz', '/health']);

/** Whether express would route `path` to a probe (any case, one trailing slash tolerated). */
export function isProbePath(path: string): boolean {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return PROBE_PATHS.has(trimmed) || PROBE_PATHS.has(trimmed.toLowerCase());
}

/** The probes of docs/api.md "Probes", at the root of every service (PROBE_PATHS). They ignore credentials entirely. */
export function createProbeRouter(options: ProbeOptions): Router {
  const { lifecycle } = options;
  const router = Router();
  const databaseUp = databaseCheck(options);
  const health = createHealthReport(options);
  const noStore = (res: Response) => res.setHeader('Cache-Control', 'no-store');
  const probe = (path: string, handler: (res: Response) => Promise<unknown> | unknown) =>
    router
      .route(path)
      .get(async (_req, res) => {
        noStore(res);
        await handler(res);
      })
      .all(rejectOtherMethods(['GET']));

  probe('/livez', (res) => res.json({ status: 'alive' }));

  probe('/startupz', (res) =>
    lifecycle.started ? res.json({ status: 'started' }) : res.status(503).json({ status: 'starting' }),
  );

  // Not ready while shutting down, while the database is unreachable (also during start-up: the contract's
  // "database unreachable" names the cause an operator must fix), or while start-up is still running.
  probe('/readyz', async (res) => {
    if (lifecycle.shuttingDown) return res.status(503).json({ status: 'unhealthy', error: 'shutting down' });
    if (!(await databaseUp())) return res.status(503).json(UNREACHABLE);
    if (!lifecycle.started) return res.status(503).json({ status: 'unhealthy', error: 'starting' });
    return res.json(HEALTHY);
  });

  probe('/healthz', async (res) =>
    (await databaseUp()) ? res.json(HEALTHY) : res.status(503).json(UNREACHABLE),
  );

  probe('/health', async (res) => {
    const { status, body } = await health('public');
    res.status(status).json(body);
  });

  return router;
}
