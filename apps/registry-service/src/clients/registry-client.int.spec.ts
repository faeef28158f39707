import { INTERNAL_PATHS, type RouteTableSnapshot } from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import { freePort } from '@mt/stack';
import { captureLogger, deleteRedisPrefix, silentLogger, testRedisPrefix } from '@mt/testing';
import { sampleRegistration } from '@mt/registry-testing';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import request from 'supertest';
import { startRegistry, TEST_SECRET, type RunningRegistry } from '../../test/registry-harness';
import { RegistryClient } from '@mt/registry-client';

const prefix = testRedisPrefix('regclient');
const TTL_MS = 1500;
const BEAT_MS = 300;

async function liveInstanceIds(registry: RunningRegistry): Promise<string[]> {
  const res = await request(registry.app).get(INTERNAL_PATHS.registryRoutes).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(200);
  return (res.body as RouteTableSnapshot).services.flatMap((c) => c.instances.map((i) => i.instance_id));
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('registry client (instance side) against a real registry', () => {
  let registry: RunningRegistry;
  const clients: RegistryClient[] = [];
  const client = (instanceId: string, registryUrl = registry.url, logger = silentLogger()) => {
    const created = new RegistryClient({
      registryUrl,
      internalSecret: TEST_SECRET,
      instanceId,
      registration: () => sampleRegistration('movies', 'http://127.0.0.1:4001'),
      logger,
      heartbeatIntervalMs: BEAT_MS,
      stopTimeoutMs: 500,
    });
    clients.push(created);
    return created;
  };

  beforeAll(async () => {
    registry = await startRegistry({ prefix, ttlMs: TTL_MS, sweepIntervalMs: 200 });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.stop()));
  });
  afterAll(async () => {
    await registry.stop();
    await deleteRedisPrefix(prefix);
  });

  it('registers in the background and resolves registered()', async () => {
    const movies = client('movies-a');
    expect(movies.start()).toBeUndefined();
    await movies.registered();
    expect(await liveInstanceIds(registry)).toEqual(['movies-a']);
  });

  it('keeps the instance live past the TTL by beating', async () => {
    const movies = client('movies-beating');
    movies.start();
    await movies.registered();
    await new Promise((r) => setTimeout(r, TTL_MS * 2));
    expect(await liveInstanceIds(registry)).toContain('movies-beating');
  });

  it('registers again when a heartbeat answers 404', async () => {
    const { logger, lines } = captureLogger();
    const movies = client('movies-forgotten', registry.url, logger);
    movies.start();
    await movies.registered();
    // The registry forgets the instance (as after a Redis flush); the next beat gets 404.
    await request(registry.app).delete(INTERNAL_PATHS.registryInstance('movies-forgotten')).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(200);
    expect(await liveInstanceIds(registry)).not.toContain('movies-forgotten');
    await eventually(async () => (await liveInstanceIds(registry)).includes('movies-forgotten'), BEAT_MS * 4);
    expect(lines().some((line) => line.includes('registering again'))).toBe(true);
  });

  it('deregisters on stop()', async () => {
    const movies = client('movies-leaving');
    movies.start();
    await movies.registered();
    await movies.stop();
    expect(await liveInstanceIds(registry)).not.toContain('movies-leaving');
  });

  it('keeps retrying while the registry is down and registers once it is up', async () => {
    const port = await freePort();
    const late = client('movies-early', `http://127.0.0.1:${port}`);
    let registered = false;
    void late.registered().then(() => (registered = true));
    late.start();
    await new Promise((r) => setTimeout(r, 600));
    expect(registered).toBe(false);
    const lateRegistry = await startRegistry({ prefix, ttlMs: TTL_MS, port });
    try {
      await late.registered();
      expect(await liveInstanceIds(lateRegistry)).toContain('movies-early');
    } finally {
      await late.stop();
      await lateRegistry.stop();
    }
  });

  it('stops within its bound when the registry hangs, resolving registered()', async () => {
    // A registry that accepts connections and never answers.
    const sockets: Socket[] = [];
    const hanging = createNetServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const orphan = client('movies-orphan', `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`);
    orphan.start();
    await new Promise((r) => setTimeout(r, 100));
    const stoppingAt = Date.now();
    await orphan.stop();
    await orphan.registered();
    expect(Date.now() - stoppingAt).toBeLessThan(1000);
    sockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => hanging.close(resolve));
  });
});
