// The gateway's discovery over real parts: the real gateway app (createApp) following the real registry
// (the built registry-service as its own process, with its own expiry sweep) through a real route table
// (real Redis), a small real auth service (JWKS, introspection), and catalog-like upstream instances that
// serve endpoint declarations of their own and register them through the registry client, as a service
// does. No other app's code: the registrations come from fixture endpoint groups.
import { z, type OpenApiFragment } from '@mt/contracts';
import { defineEndpoint, endpointRouter, PUBLIC, reply, scope, type EndpointGroup } from '@mt/endpoints';
import { errorMiddleware } from '@mt/errors';
import { identityMiddleware } from '@mt/identity';
import { requestContextMiddleware, type Logger } from '@mt/logging';
import { RegistryClient, RegistryRouteTable, serviceRegistration, type RouteTable } from '@mt/registry-client';
import { silentLogger, testRedisUrl } from '@mt/testing';
import { categoryRecord } from '@mt/registry-testing';
import express from 'express';
import { catalogFragment } from './catalog-fragment';
import { startTestGateway, type TestGateway } from './gateway';
import { createSigningKey, signJwt, TEST_SECRET, type SigningKey } from './keys';
import { authRoutes } from './manifests';
import { startHttpServer, type RunningServer } from './servers';
import { startRegistryProcess, type ServiceUnderTest } from './service-processes';
import { startFakeAuthService, type FakeAuthService } from './upstreams';

export interface SeenRequest {
  instanceId: string;
  method: string;
  url: string;
  userId?: string;
}

export interface DiscoveryStack {
  gateway: TestGateway;
  app: TestGateway['app'];
  url: string;
  /** The registry-service process (its URL takes internal calls with TEST_SECRET). */
  registry: ServiceUnderTest;
  routeTable: RouteTable;
  auth: FakeAuthService;
  /** A JWT the gateway accepts (signed with the fake auth service's key). */
  jwt(): string;
  /** Requests the catalog-like upstreams answered. */
  seen: SeenRequest[];
  /** Starts a catalog-like upstream for `service` and registers it (resolves once registered). */
  addInstance(service: string, instanceId: string, group?: EndpointGroup): Promise<{ client: RegistryClient; server: RunningServer }>;
  stop(): Promise<void>;
}

export interface DiscoveryStackOptions {
  prefix: string;
  /**
   * The OpenAPI fragment instances register: the one derived from their endpoint declarations (default),
   * or a deliberately careless fixture (generic names that collide across categories).
   */
  fragments?: 'declared' | 'careless';
  ttlMs?: number;
  sweepIntervalMs?: number;
  logger?: Logger;
}

const ItemSchema = z.object({ item_id: z.string() }).openapi('ListItemStub');
const EntrySchema = z.object({ id: z.string(), title: z.string() }).openapi('EntryStub');

/** A catalog-shaped group: search (public), one entry (public), the caller's list (scoped). */
export function catalogLikeGroup(service: string, seen: SeenRequest[], instanceId: string): EndpointGroup {
  const note = (method: string, url: string, userId?: string) => seen.push({ instanceId, method, url, userId });
  return {
    namespace: service,
    mount: `/api/v1/${service}`,
    tags: [{ name: service, description: `${service} catalog` }],
    endpoints: [
      defineEndpoint({
        name: 'search entries',
        method: 'GET',
        path: '/',
        access: PUBLIC,
        summary: 'Search',
        query: z.strictObject({ q: z.string().optional() }),
        responses: { 200: { description: 'Entries', schema: z.object({ data: z.array(EntrySchema) }) } },
        handle: ({ req }) => {
          note('GET', req.originalUrl);
          return reply.ok({ data: [{ id: '0123456789abcdef01234567', title: `${service} sample` }] });
        },
      }),
      defineEndpoint({
        name: 'get entry',
        method: 'GET',
        path: '/{id}',
        access: PUBLIC,
        summary: 'One entry',
        params: z.strictObject({ id: z.string().regex(/^[0-9a-f]{24}$/) }),
        responses: { 200: { description: 'The entry', schema: EntrySchema } },
        handle: ({ params }) => reply.ok({ id: params.id, title: `${service} sample` }),
      }),
      defineEndpoint({
        name: 'get list',
        method: 'GET',
        path: '/list',
        access: scope('list:read'),
        summary: 'Your list',
        responses: { 200: { description: 'Your entries', schema: z.object({ data: z.array(ItemSchema) }) } },
        handle: ({ req, caller }) => {
          note('GET', req.originalUrl, caller.userId);
          return reply.ok({ data: [{ item_id: '0123456789abcdef01234567' }] });
        },
      }),
    ],
  };
}

async function startUpstream(group: EndpointGroup): Promise<RunningServer> {
  const app = express();
  app.use(requestContextMiddleware(silentLogger()));
  app.get('/healthz', (_req, res) => res.json({ status: 'healthy', database: 'connected' }));
  app.use(identityMiddleware(TEST_SECRET));
  app.use(endpointRouter([group]));
  app.use(errorMiddleware(silentLogger()));
  return startHttpServer(app);
}

export async function startDiscoveryStack(options: DiscoveryStackOptions): Promise<DiscoveryStack> {
  const registry = await startRegistryProcess({ prefix: options.prefix, ttlMs: options.ttlMs, sweepIntervalMs: options.sweepIntervalMs, secret: TEST_SECRET });
  try {
    return await assemble(options, registry);
  } catch (error) {
    // A process outlives the test file: it must not be left running when the rest fails to start.
    await registry.stop().catch(() => undefined);
    throw error;
  }
}

/** Everything in-process around the registry process. */
async function assemble(options: DiscoveryStackOptions, registry: ServiceUnderTest): Promise<DiscoveryStack> {
  const logger = options.logger ?? silentLogger();
  const key: SigningKey = createSigningKey('discovery-key');
  const auth = await startFakeAuthService([key]);

  const routeTable = new RegistryRouteTable({
    registryUrl: registry.url,
    internalSecret: TEST_SECRET,
    redisUrl: testRedisUrl(),
    redisKeyPrefix: options.prefix,
    logger,
    emptyConfirmMs: 0,
  });
  await routeTable.start();
  const gateway = await startTestGateway({ routeTable, authUrl: auth.url, prefix: options.prefix, logger, env: { REGISTRY_URL: registry.url } });
  const server = await startHttpServer(gateway.app);

  const clients: RegistryClient[] = [];
  const servers: RunningServer[] = [];
  const seen: SeenRequest[] = [];
  const register = (instanceId: string, registration: () => ReturnType<typeof serviceRegistration>) => {
    const client = new RegistryClient({ registryUrl: registry.url, internalSecret: TEST_SECRET, instanceId, registration, logger, heartbeatIntervalMs: 500 });
    clients.push(client);
    client.start();
    return client;
  };
  // The fake auth service registers its public routes, as the real one does.
  const authClient = register('auth-1', () => ({
    service: 'auth',
    base_url: auth.url,
    version: '1.0.0',
    manifest: { digest: 'a'.repeat(32), routes: authRoutes() },
    openapi: { paths: {}, components: {} },
  }));
  await authClient.registered();

  return {
    gateway,
    app: gateway.app,
    url: server.url,
    registry,
    routeTable,
    auth,
    jwt: () => signJwt(key),
    seen,
    async addInstance(service, instanceId, group = catalogLikeGroup(service, seen, instanceId)) {
      const upstream = await startUpstream(group);
      servers.push(upstream);
      const declared = serviceRegistration({ service, category: categoryRecord(service), baseUrl: upstream.url, version: '1.0.0', groups: [group] });
      const openapi: OpenApiFragment = options.fragments === 'careless' ? catalogFragment(service) : declared.openapi;
      const client = register(instanceId, () => ({ ...declared, openapi: { ...openapi, tags: openapi.tags ?? [{ name: service, description: `${service} catalog` }] } }));
      await client.registered();
      return { client, server: upstream };
    },
    async stop() {
      await Promise.all(clients.map((client) => client.stop()));
      await Promise.all(servers.map((upstream) => upstream.close()));
      await routeTable.stop();
      await Promise.all([server.close(), auth.close(), registry.stop(), gateway.close()]);
    },
  };
}
