import { rejectOtherMethods } from '@mt/errors';
import { Router, type Response } from 'express';
import type { Lifecycle } from './lifecycle';
import { withTimeout } from './with-timeout';

export interface UpstreamHealth {
  status: 'healthy' | 'unhealthy';
  [detail: string]: unknown;
}

export interface ProbeOptions {
  service: string;
  version: string;
  lifecycle: Lifecycle;
  /** Pings the service's own database; rejects when it is unreachable. */
  pingDatabase: () => Promise<unknown>;
  /** Gateway only: each upstream's health for /health. */
  upstreams?: () => Promise<Record<string, UpstreamHealth>>;
  pingTimeoutMs?: number;
}

const HEALTHY = { status: 'healthy', database: 'connected' } as const;
const UNREACHABLE = { status: 'unhealthy', error: 'database unreachable' } as const;

/** The probes of API.md §4, at the root of every service. They ignore credentials entirely. */
export function createProbeRouter(options: ProbeOptions): Router {
  const { lifecycle, pingTimeoutMs = 1000 } = options;
  const router = Router();

  const databaseUp = async (): Promise<boolean> => {
    try {
      await withTimeout(Promise.resolve().then(options.pingDatabase), pingTimeoutMs, 'database ping');
      return true;
    } catch {
      return false;
    }
  };
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
    const [up, services] = await Promise.all([databaseUp(), options.upstreams?.()]);
    const about = {
      service: options.service,
      version: options.version,
      uptime_seconds: Math.floor((Date.now() - lifecycle.startedAtMs) / 1000),
      ...(services ? { services } : {}),
    };
    return up ? res.json({ ...HEALTHY, ...about }) : res.status(503).json({ ...UNREACHABLE, ...about });
  });

  return router;
}
