// A gateway-like app for the discovery tests: helmet (with the gateway's strict API CSP), the real probes,
// the discovery router over a real route table that follows a real registry-service (real Redis), an auth
// fragment served over HTTP, real catalog-like upstream servers registered through the registry client,
// and a minimal forwarder to them so "try it out" reaches a catalog. Independent of the rest of the gateway.
import { generateFragment, INTERNAL_PATHS, type OpenApiFragment } from '@mt/contracts';
import { createHttpApp, finishHttpApp } from '@mt/http';
import type { Logger } from '@mt/logging';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { createRegistryClient, createRouteTable, type RegistryClient, type RouteTable } from '@mt/registry-client';
import { closeRedis, createRedis, pingRedis, waitForRedis } from '@mt/stores';
import { silentLogger, testRedisUrl } from '@mt/testing';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { buildOpenApiRegistry } from '../../auth-service/src/openapi';
import { categoryRecord as catalogCategoryRecord, getCategory } from '../../catalog-service/src/categories/categories';
import { buildCategoryOpenApi } from '../../catalog-service/src/openapi';
import { startRegistry, TEST_SECRET, type RunningRegistry } from '../../registry-service/test/registry-harness';
import { categoryRecord } from '../../registry-service/test/registration-fixtures';
import { createDiscoveryRouter } from '../src/discovery';
import { catalogFragment } from './catalog-fragment';
import { startHttpServer, type RunningServer } from './servers';

export { TEST_SECRET };

/** The auth service's real fragment, generated from its own module. */
export const authServiceFragment = (): OpenApiFragment => generateFragment(buildOpenApiRegistry());

export interface SeenRequest {
  instanceId: string;
  method: string;
  url: string;
  authorization?: string;
}

export interface DiscoveryStack {
  app: Express;
  url: string;
  registry: RunningRegistry;
  routeTable: RouteTable;
  /** Requests the catalog upstreams answered. */
  seen: SeenRequest[];
  /** Starts a catalog-like upstream for `category` and registers it (resolves once registered). */
  addInstance(category: string, instanceId: string): Promise<{ client: RegistryClient; server: RunningServer }>;
  /** How often the auth service was asked for its fragment. */
  authRequests(): number;
  /** Serves the auth fragment from now on (the auth service "comes up"); undefined answers 503. */
  setAuthFragment(fragment: OpenApiFragment | undefined): void;
  stop(): Promise<void>;
}

export interface DiscoveryStackOptions {
  prefix: string;
  /**
   * What instances register: the catalog service's own category records and fragments (default), or
   * this folder's deliberately careless fixture (generic names that collide across categories).
   */
  catalog?: 'catalog-service' | 'fixture';
  authFragment?: OpenApiFragment;
  ttlMs?: number;
  sweepIntervalMs?: number;
  logger?: Logger;
}

function catalogUpstream(instanceId: string, seen: SeenRequest[]): Express {
  const app = express();
  app.use((req, _res, next) => {
    seen.push({ instanceId, method: req.method, url: req.originalUrl, authorization: req.headers.authorization });
    next();
  });
  app.get('/api/v1/:category/list', (req, res) => {
    if (!req.headers.authorization?.startsWith('Bearer ')) {
      res.status(401).json({ error: 'authentication required', status: 401, timestamp: new Date().toISOString(), code: 'unauthorized', request_id: 'x' });
      return;
    }
    res.json({ data: [{ item_id: '0123456789abcdef01234567' }] });
  });
  app.get('/api/v1/:category', (req, res) => {
    const now = new Date().toISOString();
    const entry = { id: '0123456789abcdef01234567', title: `${req.params.category} sample`, year: 1999, description: null, genres: [], created_by: null, created_at: now, updated_at: now };
    res.json({ data: [entry], page: 1, limit: 20, total: 1, total_pages: 1 });
  });
  return app;
}

/** Just enough proxying for the docs page's "try it out": GETs to a live instance, Authorization passed on. */
function forwardToCatalog(routeTable: RouteTable): RequestHandler {
  return async (req, res, next) => {
    const instance = routeTable.pickInstance(String(req.params['category']));
    if (!instance) return next();
    const upstream = await fetch(`${instance.base_url}${req.originalUrl}`, {
      method: req.method,
      headers: req.headers.authorization ? { authorization: req.headers.authorization } : {},
    });
    res.status(upstream.status).type('application/json').send(await upstream.text());
  };
}

export async function startDiscoveryStack(options: DiscoveryStackOptions): Promise<DiscoveryStack> {
  const logger = options.logger ?? silentLogger();
  const registry = await startRegistry({ prefix: options.prefix, ttlMs: options.ttlMs, sweepIntervalMs: options.sweepIntervalMs });

  let authFragment = options.authFragment;
  let authRequests = 0;
  const auth = await startHttpServer(
    express().get(INTERNAL_PATHS.authOpenApi, (_req, res) => {
      authRequests += 1;
      if (authFragment) res.json(authFragment);
      else res.status(503).json({ error: 'starting' });
    }),
  );

  const routeTable = createRouteTable({
    registryUrl: registry.url,
    internalSecret: TEST_SECRET,
    redisUrl: testRedisUrl(),
    redisKeyPrefix: options.prefix,
    logger,
  });
  await routeTable.start();

  const redis = createRedis({ url: testRedisUrl(), logger, name: 'gateway-test' });
  await waitForRedis(redis);
  const lifecycle = createLifecycle();
  lifecycle.started = true;
  const app = createHttpApp({
    logger,
    metrics: createMetrics('gateway-test'),
    parseJson: false,
    // As the gateway: a JSON API's CSP on every response, which the docs routes replace with their own.
    before: [helmet({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } } })],
    probes: { service: 'gateway', version: '1.0.0', lifecycle, pingDatabase: () => pingRedis(redis) },
  });
  app.use(createDiscoveryRouter({ routeTable, authUrl: auth.url, internalSecret: TEST_SECRET, logger }));
  app.use('/api/v1/:category', forwardToCatalog(routeTable));
  finishHttpApp(app, logger);
  const gateway = await startHttpServer(app);

  const registration = (category: string) =>
    options.catalog === 'fixture'
      ? { category: categoryRecord(category), openapi: catalogFragment(category) }
      : { category: catalogCategoryRecord(getCategory(category)), openapi: buildCategoryOpenApi(category) };
  const seen: SeenRequest[] = [];
  const instances: Array<{ client: RegistryClient; server: RunningServer }> = [];

  return {
    app,
    url: gateway.url,
    registry,
    routeTable,
    seen,
    async addInstance(category, instanceId) {
      const server = await startHttpServer(catalogUpstream(instanceId, seen));
      const client = createRegistryClient({
        registryUrl: registry.url,
        internalSecret: TEST_SECRET,
        instanceId,
        registration: () => ({ ...registration(category), base_url: server.url, version: '1.0.0' }),
        logger,
        heartbeatIntervalMs: 500,
      });
      client.start();
      await client.registered();
      instances.push({ client, server });
      return { client, server };
    },
    authRequests: () => authRequests,
    setAuthFragment(fragment) {
      authFragment = fragment;
    },
    async stop() {
      await Promise.all(instances.map(({ client }) => client.stop()));
      await Promise.all(instances.map(({ server }) => server.close()));
      await routeTable.stop();
      await Promise.all([gateway.close(), auth.close(), registry.stop(), closeRedis(redis)]);
    },
  };
}
