import type { ManifestRoute } from '@mt/contracts';
import { createHttpApp, finishHttpApp, startService, type RunningService } from '@mt/http';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { keepAliveExchange, requestWithBody, silentLogger } from '@mt/testing';
import { Router } from 'express';
import { startTestGateway, type TestGateway } from '../../test/gateway';
import { startFakeAuthService, type FakeAuthService } from '../../test/upstreams';
import { StaticRouteTable } from '../../test/static-route-table';

const MiB = 1024 * 1024;
const BODY = Buffer.alloc(9 * MiB, 'a');
const NEXT = 'GET /api/v1/uploads HTTP/1.1\r\nHost: x\r\n\r\n';

async function serve(name: string, app: ReturnType<typeof createHttpApp>): Promise<RunningService> {
  const service = await startService({
    name,
    app,
    logger: silentLogger(),
    lifecycle: createLifecycle(),
    port: 0,
    host: '127.0.0.1',
    shutdownTimeoutMs: 1000,
    startup: async () => undefined,
    shutdown: async () => undefined,
  });
  await service.started;
  return service;
}

/**
 * An upload the upstream answers early (413 after 1 MiB of 9 MiB, as the catalog's import does), relayed
 * by the gateway as it runs, and the gateway's own early 413: the client's next request on the same
 * keep-alive connection is answered at once, not after the request timeout.
 */
describe('gateway: a keep-alive connection after an early answer to an upload', () => {
  let auth: FakeAuthService;
  let upstream: RunningService;
  let gateway: TestGateway;
  let served: RunningService;

  beforeAll(async () => {
    auth = await startFakeAuthService([]);
    const logger = silentLogger();
    const lifecycle = createLifecycle();
    lifecycle.started = true;
    const app = createHttpApp({ logger, metrics: createMetrics('uploads-test'), probes: { service: 'uploads', version: '1.0.0', lifecycle, pingDatabase: async () => undefined } });
    const router = Router();
    router.get('/api/v1/uploads', (_req, res) => void res.json({ ok: true }));
    router.post('/api/v1/uploads/files', async (req, res) => {
      let size = 0;
      for await (const chunk of req.iterator({ destroyOnReturn: false })) {
        size += (chunk as Buffer).length;
        if (size > MiB) return void res.status(413).json({ error: 'too large', status: 413, code: 'payload_too_large' });
      }
      res.status(201).json({ size });
    });
    app.use(router);
    finishHttpApp(app, logger);
    upstream = await serve('uploads', app);
    const routes: ManifestRoute[] = [
      { method: 'GET', path: '/api/v1/uploads', access: { kind: 'public' }, body_limit: MiB },
      { method: 'POST', path: '/api/v1/uploads/files', access: { kind: 'public' }, body_limit: 10 * MiB },
      { method: 'POST', path: '/api/v1/uploads', access: { kind: 'public' }, body_limit: MiB },
    ];
    const routeTable = new StaticRouteTable().setInstances('uploads', [{ id: 'uploads-1', url: `http://127.0.0.1:${upstream.port}` }], routes, false);
    gateway = await startTestGateway({ routeTable, authUrl: auth.url, env: { RATE_LIMIT_PER_MINUTE: '0' } });
    served = await serve('gateway', gateway.app);
  });

  afterAll(async () => {
    await served.stop();
    await gateway.close();
    await upstream.stop();
    await auth.close();
  });

  it.each(['content-length', 'chunked'] as const)('after an upstream answered a %s upload early', async (framing) => {
    const upload = requestWithBody('POST /api/v1/uploads/files HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n', BODY, framing);
    const exchange = await keepAliveExchange(served.port, upload, NEXT);
    expect(exchange.statuses).toEqual([413, 200]);
    expect(exchange.nextAnsweredAfterMs).toBeLessThan(1000);
  });

  it("after the gateway's own 413 for a declared length over the route's limit", async () => {
    const upload = requestWithBody('POST /api/v1/uploads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n', BODY, 'content-length');
    const exchange = await keepAliveExchange(served.port, upload, NEXT);
    expect(exchange.statuses).toEqual([413, 200]);
    expect(exchange.nextAnsweredAfterMs).toBeLessThan(1000);
  });
});
