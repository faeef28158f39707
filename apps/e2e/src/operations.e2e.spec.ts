import { delay } from '@mt/stack';
import { ConformanceError, type ApiClient, type ApiResponse } from './support/api-client';
import type { CatalogEntry, ErrorPayload, LoginResponse, Page, ProbeBody, User } from './support/api-types';
import { CATEGORIES, eventually, itWithSeparateProcesses, startTestStack, type TestStack } from './support/test-stack';

/**
 * What an operator relies on, on a whole stack of processes whose stores sit behind TCP relays (so this
 * file can cut "the database" of its own stack): the probes of every process with the stores up, down and
 * back (docs/api.md "Probes"), and scaling a category out and losing an instance without a client-visible error.
 */

const INSTANCE_TTL_MS = 3000;
const SWEEP_INTERVAL_MS = 500;
/** From a SIGKILL until the dead instance is out of every route table: TTL, one sweep, and slack for a busy machine. */
const EXPIRY_WINDOW_MS = INSTANCE_TTL_MS + SWEEP_INTERVAL_MS + 1500;

const HEALTHY = { status: 'healthy', database: 'connected' };
const UNREACHABLE = { status: 'unhealthy', error: 'database unreachable' };

/** The seven processes of the stack, and the stores each one's readiness pings. */
const PROCESSES: Array<{ name: string; stores: Array<'mongo' | 'redis'> }> = [
  { name: 'gateway', stores: ['redis'] },
  { name: 'registry-service', stores: ['redis'] },
  { name: 'auth-service', stores: ['mongo'] },
  ...CATEGORIES.map((category) => ({ name: `catalog-${category}`, stores: ['mongo' as const] })),
  // Its events are stored in MongoDB before the 202; with Redis down it still accepts them (the pending
  // sweep queues them once Redis is back), so its readiness is MongoDB's alone.
  { name: 'scrobble-service', stores: ['mongo'] },
];

let stack: TestStack;
let api: ApiClient;

beforeAll(async () => {
  stack = await startTestStack({
    name: 'operations',
    faultProxies: true,
    appEnv: {
      'registry-service': {
        INSTANCE_TTL_MS: String(INSTANCE_TTL_MS),
        SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS),
      },
      // Well inside the short TTL, so live instances never expire.
      'catalog-service': { REGISTRY_HEARTBEAT_MS: '500' },
      'auth-service': { REGISTRY_HEARTBEAT_MS: '500' },
      'scrobble-service': { REGISTRY_HEARTBEAT_MS: '500' },
    },
  });
  api = stack.api;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

interface ProbeAnswers {
  livez: ApiResponse<ProbeBody>;
  readyz: ApiResponse<ProbeBody>;
  healthz: ApiResponse<ProbeBody>;
}

async function probesOf(processName: string): Promise<ProbeAnswers> {
  const client = stack.clientFor(stack.stack.process(processName).url);
  const [livez, readyz, healthz] = await Promise.all(
    ['/livez', '/readyz', '/healthz'].map((path) => client.get<ProbeBody>(path, { timeoutMs: 5000 })),
  );
  return { livez: livez!, readyz: readyz!, healthz: healthz! };
}

const statusAndBody = ({ status, body }: ApiResponse<ProbeBody>) => ({ status, body });

async function expectHealthy(processName: string): Promise<void> {
  const answers = await probesOf(processName);
  expect({
    process: processName,
    livez: statusAndBody(answers.livez),
    readyz: statusAndBody(answers.readyz),
    healthz: statusAndBody(answers.healthz),
  }).toEqual({
    process: processName,
    livez: { status: 200, body: { status: 'alive' } },
    readyz: { status: 200, body: HEALTHY },
    healthz: { status: 200, body: HEALTHY },
  });
}

async function expectUnreachable(processName: string): Promise<void> {
  const answers = await probesOf(processName);
  expect({
    process: processName,
    livez: statusAndBody(answers.livez),
    readyz: statusAndBody(answers.readyz),
    healthz: statusAndBody(answers.healthz),
  }).toEqual({
    process: processName,
    livez: { status: 200, body: { status: 'alive' } },
    readyz: { status: 503, body: UNREACHABLE },
    healthz: { status: 503, body: UNREACHABLE },
  });
}

const ALL_PROCESSES = PROCESSES.map((p) => p.name);
const namesOn = (store: 'mongo' | 'redis') => PROCESSES.filter((p) => p.stores.includes(store)).map((p) => p.name);
const namesOff = (store: 'mongo' | 'redis') => PROCESSES.filter((p) => !p.stores.includes(store)).map((p) => p.name);
const allOf = (names: string[], check: (name: string) => Promise<void>) => Promise.all(names.map(check));

async function waitForAllCategories(): Promise<void> {
  await eventually(
    async () => {
      const categories = await api.get<Array<{ id: string }>>('/api/v1/categories');
      expect(categories.body.map((category) => category.id)).toEqual([...CATEGORIES]);
    },
    { timeoutMs: 20_000, intervalMs: 200 },
  );
}

describe('probes of all seven processes', () => {
  it('are alive, started, ready and healthy while the stores are up', async () => {
    await allOf(ALL_PROCESSES, expectHealthy);
    for (const { name } of PROCESSES) {
      const client = stack.clientFor(stack.stack.process(name).url);
      expect(statusAndBody(await client.get<ProbeBody>('/startupz'))).toEqual({
        status: 200,
        body: { status: 'started' },
      });
      const health = await client.get<ProbeBody & { service: string }>('/health');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({
        ...HEALTHY,
        version: expect.any(String),
        uptime_seconds: expect.any(Number),
      });
    }
    // The gateway's own probes through the public base URL too.
    expect(statusAndBody(await api.get<ProbeBody>('/readyz'))).toEqual({ status: 200, body: HEALTHY });
  });

  it('with MongoDB cut: auth, the catalogs and scrobbling are unready and unhealthy but alive, the others unaffected; healthy again once restored', async () => {
    await stack.mongoProxy!.cut();
    try {
      await eventually(() => allOf(namesOn('mongo'), expectUnreachable), {
        timeoutMs: 15_000,
        intervalMs: 250,
      });
      await allOf(namesOff('mongo'), expectHealthy);
      // Through the gateway, a request that needs MongoDB is the documented 503, not a hang or a 500.
      const catalog = await api.get<ErrorPayload>('/api/v1/movies');
      expect(catalog.status).toBe(503);
      expect(catalog.body.code).toBe('service_unavailable');
      const login = await api.post<ErrorPayload>('/api/v1/auth/login', {
        username: 'nobody_here',
        password: 'whatever-it-is',
      });
      expect(login.status).toBe(503);
      // The gateway itself is healthy, and its /health shows which upstreams are not.
      const health = await api.get<{ status: string; services: Record<string, { status: string }> }>(
        '/health',
      );
      expect(health.status).toBe(200);
      // The gateway's own dependencies by name, each routed service by `catalog:<category>` / `service:<id>`.
      const upstreams = Object.entries(health.body.services).map(([name, { status }]) => `${name} ${status}`);
      expect(upstreams.sort()).toEqual(
        ['auth unhealthy', 'registry healthy', 'service:auth unhealthy', 'service:scrobble unhealthy', ...CATEGORIES.map((category) => `catalog:${category} unhealthy`)].sort(),
      );
    } finally {
      await stack.mongoProxy!.restore();
    }
    await eventually(() => allOf(ALL_PROCESSES, expectHealthy), { timeoutMs: 30_000, intervalMs: 250 });
    expect((await api.get<Page<CatalogEntry>>('/api/v1/movies')).status).toBe(200);
  });

  it('with Redis cut: the gateway and the registry are unready and unhealthy but alive, the others unaffected; healthy again once restored', async () => {
    await stack.redisProxy!.cut();
    try {
      await eventually(() => allOf(namesOn('redis'), expectUnreachable), {
        timeoutMs: 15_000,
        intervalMs: 250,
      });
      await allOf(namesOff('redis'), expectHealthy);
    } finally {
      await stack.redisProxy!.restore();
    }
    await eventually(() => allOf(ALL_PROCESSES, expectHealthy), { timeoutMs: 30_000, intervalMs: 250 });
    // With the short TTL, instances may have expired while the registry could not take heartbeats.
    await waitForAllCategories();
  });
});

interface Outcome {
  kind: 'GET' | 'POST';
  sentAt: number;
  status: number | 'network error';
  requestId?: string;
}

describe('scaling the movies catalog', () => {
  let sequence = 0;
  /** Which movies instance logged the request (the request id reaches the service's log line). */
  const servedBy = (requestId: string) =>
    stack.logs.find(
      (line) => line.json?.['request_id'] === requestId && line.process.startsWith('catalog-movies'),
    )?.process;
  /** The instance that served it, once its log line has arrived (output is read asynchronously). */
  const instanceThatServed = (requestId: string) =>
    eventually(
      async () => servedBy(requestId) ?? Promise.reject(new Error(`no catalog logged ${requestId}`)),
      { timeoutMs: 3000, intervalMs: 10 },
    );

  async function trackedGet(
    path: string,
  ): Promise<{ requestId: string; response: ApiResponse<Page<CatalogEntry>> }> {
    const requestId = `e2e-scale-${process.pid}-${sequence++}`;
    const response = await api.get<Page<CatalogEntry>>(path, { headers: { 'x-request-id': requestId } });
    return { requestId, response };
  }

  itWithSeparateProcesses(
    'spreads requests across a second instance that joins, and loses no GET when an instance is killed',
    'the killed instance is the all-in-one process, so the kill would take every service with it',
    async () => {
      const registered = await api.post<User>('/api/v1/auth/register', {
        username: `scaler${Date.now().toString(36)}`,
        email: `scaler${Date.now().toString(36)}@example.com`,
        password: 'correct horse battery',
      });
      expect(registered.status).toBe(201);
      const login = await api.post<LoginResponse>('/api/v1/auth/login', {
        username: registered.body.username,
        password: 'correct horse battery',
      });
      const token = login.body.access_token;

      const second = await stack.stack.startCatalogInstance('movies');
      await second.waitReady(30_000);
      expect(second.name).toBe('catalog-movies-2');

      // The gateway routes to both once the registry has told it about the new instance.
      await eventually(
        async () => {
          const served = new Set<string>();
          for (let i = 0; i < 6; i++)
            served.add(await instanceThatServed((await trackedGet('/api/v1/movies?limit=1')).requestId));
          expect(served).toEqual(new Set(['catalog-movies', 'catalog-movies-2']));
        },
        { timeoutMs: 20_000, intervalMs: 200 },
      );

      // Round robin: 40 requests, about half each.
      const spread = new Map<string, number>();
      for (let i = 0; i < 40; i++) {
        const { requestId, response } = await trackedGet('/api/v1/movies?limit=1');
        expect(response.status).toBe(200);
        const instance = await instanceThatServed(requestId);
        spread.set(instance, (spread.get(instance) ?? 0) + 1);
      }
      expect(spread.get('catalog-movies')).toBeGreaterThanOrEqual(15);
      expect(spread.get('catalog-movies-2')).toBeGreaterThanOrEqual(15);

      // 100 GETs and 25 POSTs spread over a SIGKILL of the first instance.
      const outcomes: Outcome[] = [];
      let killedAt = 0;
      const victim = stack.stack.process('catalog-movies');
      const send = async (kind: Outcome['kind'], run: () => Promise<ApiResponse<unknown>>) => {
        const sentAt = Date.now();
        try {
          const response = await run();
          outcomes.push({
            kind,
            sentAt,
            status: response.status,
            requestId: response.headers.get('x-request-id') ?? undefined,
          });
        } catch (error) {
          if (error instanceof ConformanceError) throw error; // a wrong answer is never excused
          outcomes.push({ kind, sentAt, status: 'network error' });
        }
      };
      const gets = (async () => {
        for (let i = 0; i < 100; i++) {
          if (i === 25) {
            killedAt = Date.now();
            victim.kill('SIGKILL');
          }
          await send(
            'GET',
            async () => (await trackedGet(`/api/v1/movies?limit=2&page=${(i % 3) + 1}`)).response,
          );
          await delay(60);
        }
      })();
      const posts = (async () => {
        for (let i = 0; i < 25; i++) {
          await send('POST', () =>
            api.post<CatalogEntry>(
              '/api/v1/movies',
              { title: `Scaled ${process.pid} ${Date.now()} ${i}`, year: 2000 },
              { token },
            ),
          );
          await delay(250);
        }
      })();
      await Promise.all([gets, posts]);
      expect(await victim.exited).toEqual({ code: null, signal: 'SIGKILL' });

      const failed = outcomes.filter((outcome) => outcome.status !== 200 && outcome.status !== 201);
      const getFailures = failed.filter((outcome) => outcome.kind === 'GET');
      const postFailures = failed.filter((outcome) => outcome.kind === 'POST');
      const retries = stack.logs.filter(
        (line) => line.process === 'gateway' && line.json?.['msg'] === 'retrying upstream request',
      ).length;
      console.log(
        `scaling: ${outcomes.length} requests over the kill; GET failures ${getFailures.length}, POST failures ${postFailures.length} ` +
          `(${postFailures.map((f) => `${f.status} at +${f.sentAt - killedAt} ms`).join(', ') || 'none'}); gateway retries ${retries}`,
      );
      expect(outcomes.filter((outcome) => outcome.kind === 'GET')).toHaveLength(100);
      // Idempotent requests never fail: the gateway sends them to the surviving instance.
      expect(getFailures).toEqual([]);
      // A non-idempotent request may fail only inside the expiry window, and only with a documented error:
      // 503 when the dead instance refused it, 502 when the kill cut it off in flight.
      for (const failure of postFailures) {
        expect([502, 503]).toContain(failure.status);
        expect(failure.sentAt - killedAt).toBeGreaterThanOrEqual(-100);
        expect(failure.sentAt - killedAt).toBeLessThanOrEqual(EXPIRY_WINDOW_MS);
      }
      // The dead instance was in rotation when it died: a request was retried or failed on it.
      expect(retries + postFailures.length).toBeGreaterThanOrEqual(1);

      // Every GET sent after the kill was served by the survivor.
      const sentAfterKill = outcomes.filter((outcome) => outcome.kind === 'GET' && outcome.sentAt > killedAt);
      expect(sentAfterKill.length).toBeGreaterThanOrEqual(70);
      const servers = await Promise.all(sentAfterKill.map((outcome) => instanceThatServed(outcome.requestId!)));
      expect(new Set(servers)).toEqual(new Set(['catalog-movies-2']));

      // The registry forgets the dead instance within the TTL (seen in the detailed /health of the gateway's
      // metrics port: the public one names categories, not instances).
      await eventually(
        async () => {
          const response = await fetch(`${stack.stack.process('gateway').metricsUrl}/health`);
          const health = (await response.json()) as { services?: Record<string, unknown> };
          const movies = Object.keys(health.services ?? {}).filter((name) =>
            name.startsWith('catalog:movies:'),
          );
          expect(movies).toHaveLength(1);
        },
        { timeoutMs: EXPIRY_WINDOW_MS, intervalMs: 200 },
      );
      const afterwards = await api.post<CatalogEntry>(
        '/api/v1/movies',
        { title: `After the kill ${Date.now()}`, year: 2001 },
        { token },
      );
      expect(afterwards.status).toBe(201);
    },
  );
});
