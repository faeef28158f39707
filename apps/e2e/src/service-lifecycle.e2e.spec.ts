import { signIdentity } from '@mt/identity';
import { SCOPES } from '@mt/tokens';
import { delay, freePort, httpGet, spawnService, type AppName, type ServiceProcess } from '@mt/stack';
import {
  closedPort,
  deleteRedisPrefix,
  dropTestDatabase,
  testDbName,
  testMongoUrl,
  testRedisPrefix,
  testRedisUrl,
} from '@mt/testing';
import { randomBytes } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The probe and shutdown rules of docs/api.md "Probes" on every built app, as a process with its real stores:
 * /livez, /startupz, /readyz, /healthz through start-up; SIGTERM turns readiness to 503 while an in-flight
 * request still gets its normal response, and the process exits 0 within 10 s; with its database
 * unreachable, a service stays alive but is neither ready nor healthy.
 *
 * Contract decisions checked here (documented in README.md):
 * - /readyz while draining: 503 `{"status":"unhealthy","error":"shutting down"}`.
 * - /readyz with the database unreachable: 503 `{"status":"unhealthy","error":"database unreachable"}`,
 *   also before start-up has finished (the cause an operator must fix wins over "starting").
 * - /readyz with the database up but start-up unfinished: 503 `{"status":"unhealthy","error":"starting"}`.
 */

const SECRET = randomBytes(36).toString('base64url');
const redisPrefix = testRedisPrefix('lifecycle');
const databases: string[] = [];
const started: ServiceProcess[] = [];
const keyDir = mkdtempSync(path.join(tmpdir(), 'mt-lifecycle-keys-'));
let peers: { authUrl: string; registryUrl: string };

const HEALTHY = { status: 'healthy', database: 'connected' };
const UNREACHABLE = { status: 'unhealthy', error: 'database unreachable' };

/** A request that needs a body, so the service keeps it open until the whole body has arrived. */
interface HeldRequest {
  method: 'POST' | 'PUT';
  path: string;
  /** A function when each send must differ (a catalog entry is created once per title). */
  body: Record<string, unknown> | (() => Record<string, unknown>);
  /** The internal secret, for an internal endpoint (its guard would answer before the body arrives). */
  internal?: boolean;
  /** A gateway-signed identity, for an endpoint that needs a scope (same reason). */
  signed?: boolean;
}

interface AppCase {
  app: AppName;
  /** The database its probes ping: MongoDB for auth and catalog, Redis for gateway and registry. */
  database: 'mongo' | 'redis';
  held: HeldRequest;
}

const CASES: AppCase[] = [
  {
    app: 'registry-service',
    database: 'redis',
    held: { method: 'PUT', path: '/internal/instances/lifecycle-test', body: { version: '1' }, internal: true },
  },
  {
    app: 'auth-service',
    database: 'mongo',
    held: { method: 'POST', path: '/api/v1/auth/login', body: { username: 'lifecycle_nobody', password: 'not-the-password' } },
  },
  {
    app: 'catalog-service',
    database: 'mongo',
    held: { method: 'POST', path: '/api/v1/movies', body: () => ({ title: `Lifecycle ${randomBytes(4).toString('hex')}`, year: 2000 }), signed: true },
  },
  {
    app: 'gateway',
    database: 'redis',
    held: { method: 'POST', path: '/api/v1/auth/login', body: { username: 'lifecycle_nobody', password: 'not-the-password' } },
  },
];

async function spawnApp(app: AppName, storeOverrides: NodeJS.ProcessEnv = {}, name: string = app): Promise<ServiceProcess> {
  const port = await freePort();
  const dbName = testDbName(app === 'auth-service' ? 'auth' : 'catalog');
  databases.push(dbName);
  const service = spawnService({
    name,
    app,
    port,
    env: {
      ...process.env,
      INTERNAL_SECRET: SECRET,
      MONGO_URL: testMongoUrl(),
      REDIS_URL: testRedisUrl(),
      REDIS_KEY_PREFIX: redisPrefix,
      MONGO_DB_NAME: dbName,
      CATEGORY: 'movies',
      ADVERTISED_URL: `http://127.0.0.1:${port}`,
      AUTH_URL: peers?.authUrl ?? 'http://127.0.0.1:9',
      REGISTRY_URL: peers?.registryUrl ?? 'http://127.0.0.1:9',
      JWT_KEY_DIR: keyDir,
      LOG_LEVEL: 'info',
      // Several services run at once here: each on a free metrics port, not the shared default.
      METRICS_PORT: '0',
      ...storeOverrides,
    },
  });
  started.push(service);
  return service;
}

interface Answer {
  status: number;
  body: unknown;
}

async function get(service: ServiceProcess, probe: string): Promise<Answer> {
  const answer = await httpGet(`${service.url}${probe}`, 3000);
  return { status: answer.status, body: JSON.parse(answer.body) as unknown };
}

/** The first answer of `probe` once the process listens. */
async function firstAnswer(service: ServiceProcess, probe: string, timeoutMs = 20_000): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!service.running) throw new Error(`${service.name} exited: ${service.recentOutput().slice(-5).join('\n')}`);
    try {
      return await get(service, probe);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await delay(25);
    }
  }
}

async function eventually(service: ServiceProcess, probe: string, expected: Answer, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: Answer | string = 'no answer';
  while (Date.now() < deadline) {
    try {
      last = await get(service, probe);
      if (JSON.stringify(last) === JSON.stringify(expected)) return;
    } catch (error) {
      last = (error as Error).message;
    }
    await delay(50);
  }
  throw new Error(`${service.name} ${probe}: expected ${JSON.stringify(expected)}, last saw ${JSON.stringify(last)}
${service.recentOutput().slice(-10).join('\n')}`);
}

/** Identity headers as the gateway signs them, with their request id. */
function signedIdentity(): Record<string, string> {
  const requestId = `lifecycle-${randomBytes(6).toString('hex')}`;
  const identity = { userId: '0123456789abcdef01234567', authType: 'jwt' as const, scopes: [...SCOPES], tokenId: 'lifecycle' };
  return { 'x-request-id': requestId, ...signIdentity(identity, requestId, SECRET) };
}

/** Sends the headers and half of the body, then waits; `finish()` sends the rest. */
function holdRequest(service: ServiceProcess, held: HeldRequest) {
  const body = Buffer.from(JSON.stringify(typeof held.body === 'function' ? held.body() : held.body));
  const half = Math.floor(body.length / 2);
  let answered = false;
  let req!: ReturnType<typeof request>;
  const response = new Promise<Answer>((resolve, reject) => {
    req = request(
      `${service.url}${held.path}`,
      {
        method: held.method,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          ...(held.internal ? { 'x-mt-internal-secret': SECRET } : {}),
          ...(held.signed ? signedIdentity() : {}),
        },
      },
      (res: IncomingMessage) => {
        answered = true;
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : undefined }));
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    req.write(body.subarray(0, half));
  });
  return {
    response,
    answeredEarly: () => answered,
    finish: () => req.end(body.subarray(half)),
  };
}

async function sendWhole(service: ServiceProcess, held: HeldRequest): Promise<Answer> {
  const request = holdRequest(service, held);
  request.finish();
  return request.response;
}

const codeOf = (answer: Answer) => (answer.body as { code?: string } | undefined)?.code;

async function exitWithin(service: ServiceProcess, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), ms)));
  try {
    return await Promise.race([service.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

beforeAll(async () => {
  // The peers the gateway and catalog talk to (start-up of a catalog includes registering; the auth
  // service registers its routes with the registry too, which is how the gateway learns them).
  const registry = await spawnApp('registry-service', {}, 'peer-registry');
  await registry.waitReady(30_000);
  const auth = await spawnApp('auth-service', { REGISTRY_URL: registry.url }, 'peer-auth');
  await auth.waitReady(30_000);
  peers = { authUrl: auth.url, registryUrl: registry.url };
}, 60_000);

afterAll(async () => {
  await Promise.all(started.map((service) => service.stop(5000)));
  await deleteRedisPrefix(redisPrefix);
  await Promise.all(databases.map((db) => dropTestDatabase(db).catch(() => undefined)));
  rmSync(keyDir, { recursive: true, force: true });
});

describe.each(CASES)('$app as a process', ({ app, database, held }) => {
  it('answers the probes through start-up, drains an in-flight request on SIGTERM and exits 0 within 10 s', async () => {
    const service = await spawnApp(app);

    const first = await firstAnswer(service, '/startupz');
    // Start-up may already be over by the first answer; if not, it says so.
    expect([JSON.stringify({ status: 503, body: { status: 'starting' } }), JSON.stringify({ status: 200, body: { status: 'started' } })]).toContain(
      JSON.stringify(first),
    );
    expect(await get(service, '/livez')).toEqual({ status: 200, body: { status: 'alive' } });
    await eventually(service, '/startupz', { status: 200, body: { status: 'started' } });
    await eventually(service, '/readyz', { status: 200, body: HEALTHY });
    expect(await get(service, '/healthz')).toEqual({ status: 200, body: HEALTHY });

    const normal = await sendWhole(service, held);
    expect(normal.status).toBeGreaterThanOrEqual(200);
    expect(normal.status).toBeLessThan(500);

    const inFlight = holdRequest(service, held);
    await delay(300);
    expect(inFlight.answeredEarly()).toBe(false); // it really is waiting for the rest of its body

    const signalledAt = Date.now();
    service.kill('SIGTERM');
    await eventually(service, '/readyz', { status: 503, body: { status: 'unhealthy', error: 'shutting down' } }, 2000);
    expect(await get(service, '/livez')).toEqual({ status: 200, body: { status: 'alive' } });

    inFlight.finish();
    const answer = await inFlight.response;
    expect(answer.status).toBe(normal.status);
    expect(codeOf(answer)).toBe(codeOf(normal));

    expect(await exitWithin(service, 10_000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
  });

  it(`stays alive, but is neither ready nor healthy, while its ${database === 'mongo' ? 'MongoDB' : 'Redis'} is unreachable; SIGTERM still exits 0`, async () => {
    const port = await closedPort();
    const service = await spawnApp(
      app,
      database === 'mongo' ? { MONGO_URL: `mongodb://127.0.0.1:${port}` } : { REDIS_URL: `redis://127.0.0.1:${port}` },
      `${app}-store-down`,
    );

    expect((await firstAnswer(service, '/livez')).status).toBe(200);
    await delay(500); // past the first connection attempt
    expect(await get(service, '/livez')).toEqual({ status: 200, body: { status: 'alive' } });
    const askedAt = Date.now();
    expect(await get(service, '/healthz')).toEqual({ status: 503, body: UNREACHABLE });
    expect(Date.now() - askedAt).toBeLessThan(1500); // the ping gives up after ~1 s
    expect(await get(service, '/readyz')).toEqual({ status: 503, body: UNREACHABLE });
    expect(await get(service, '/startupz')).toEqual({ status: 503, body: { status: 'starting' } });
    const health = await get(service, '/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ ...UNREACHABLE, version: expect.any(String), uptime_seconds: expect.any(Number) });

    const signalledAt = Date.now();
    service.kill('SIGTERM');
    expect(await exitWithin(service, 10_000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
  });
});
