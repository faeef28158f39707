import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';
import { httpGet } from './http-probe';
import type { LogLine } from './log-format';
import { spawnService } from './service-process';
import { INTERNAL_SECRET_MIN_LENGTH as SERVICES_MIN_LENGTH } from '@mt/config';
import { AUTH_GLIBC_TUNABLES, GATEWAY_NODE_OPTIONS, INTERNAL_SECRET_MIN_LENGTH, SERVICE_NODE_OPTIONS, SINGLE_PROCESS_NODE_OPTIONS, startStack, withSingleProcessNodeOptions, type Stack } from './stack';
import { APPS } from './workspace';

/**
 * The launcher's mechanics against small stand-in apps (real processes, real HTTP) in a temporary
 * workspace, so they are tested whatever state the real apps are in; apps/e2e runs the real ones.
 */
const FAKE_APP = `
const http = require('node:http');
const app = require('node:path').basename(__dirname);
const name = process.env.CATEGORY ? 'catalog-' + process.env.CATEGORY : app;
const log = (level, msg, extra) =>
  process.stdout.write(JSON.stringify({ level, time: new Date().toISOString(), service: app, msg, ...extra }) + '\\n');
if (process.env.FAKE_CRASH === app) {
  process.stderr.write('Invalid configuration:\\n  - FAKE_SETTING: must be a number\\n');
  process.exit(1);
}
const ready = process.env.FAKE_NEVER_READY !== app;
const server = http.createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/readyz') {
    res.statusCode = ready ? 200 : 503;
    return res.end(JSON.stringify(ready ? { status: 'healthy' } : { status: 'unhealthy', error: 'starting' }));
  }
  if (req.url === '/env') return res.end(JSON.stringify(process.env));
  log('info', 'request', { method: req.method, path: req.url, status: 404, duration_ms: 0.5 });
  res.statusCode = 404;
  res.end('{}');
});
server.listen(Number(process.env.PORT), process.env.HOST, () => log('info', name + ' listening', { port: Number(process.env.PORT) }));
process.on('SIGTERM', () => {
  if (process.env.FAKE_IGNORE_SIGTERM === app) return log('warn', 'ignoring SIGTERM');
  log('info', name + ' stopping');
  server.close(() => process.exit(0));
});
`;

/** The all-in-one host's stand-in: one server per planned service, each answering with its own environment. */
const FAKE_HOST = `
const http = require('node:http');
const plan = JSON.parse(process.env.MT_SERVICES);
const servers = plan.map(({ name, app, env: own }) => {
  const env = { ...process.env, ...own };
  delete env.MT_SERVICES;
  const fields = env.CATEGORY ? { service: app, category: env.CATEGORY } : { service: app };
  const log = (msg) => process.stdout.write(JSON.stringify({ level: 'info', ...fields, msg }) + '\\n');
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/readyz') return res.end('{"status":"healthy"}');
    res.end(JSON.stringify({ ...env, PID: String(process.pid) }));
  });
  server.listen(Number(own.PORT), own.HOST, () => log(name + ' listening'));
  return server;
});
process.stdout.write(JSON.stringify({ level: 'info', service: 'all-in-one', msg: 'hosting ' + plan.length }) + '\\n');
process.on('SIGTERM', () => {
  let open = servers.length;
  for (const server of servers) server.close(() => --open === 0 && process.exit(0));
});
`;

let rootDir: string;
beforeAll(() => {
  rootDir = mkdtempSync(path.join(tmpdir(), 'mt-stack-spec-'));
  for (const app of APPS) {
    mkdirSync(path.join(rootDir, 'dist/apps', app), { recursive: true });
    writeFileSync(path.join(rootDir, 'dist/apps', app, 'main.js'), FAKE_APP);
  }
  mkdirSync(path.join(rootDir, 'dist/apps/all-in-one'), { recursive: true });
  writeFileSync(path.join(rootDir, 'dist/apps/all-in-one/main.js'), FAKE_HOST);
});
afterAll(() => rmSync(rootDir, { recursive: true, force: true }));

const envOf = async (url: string) => JSON.parse((await httpGet(`${url}/env`)).body) as Record<string, string>;

describe('startStack', () => {
  let stack: Stack | undefined;
  let lines: LogLine[];
  const start = (env: NodeJS.ProcessEnv = {}) => {
    lines = [];
    return startStack({
      rootDir,
      waitForRoutes: false,
      gatewayPort: 0,
      ports: 'free',
      mongoUrl: 'mongodb://127.0.0.1:1',
      redisUrl: 'redis://127.0.0.1:2',
      onLog: (line) => lines.push(line),
      baseEnv: { ...process.env, PORT: '9999', CATEGORY: 'leaked', MONGO_DB_NAME: 'leaked', ...env },
    });
  };
  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
  });

  it('in single-process mode, hosts every service in one process with the same ports and variables, and names their log lines', async () => {
    lines = [];
    stack = await startStack({
      rootDir,
      singleProcess: true,
      waitForRoutes: false,
      gatewayPort: 0,
      ports: 'free',
      mongoUrl: 'mongodb://127.0.0.1:1',
      redisUrl: 'redis://127.0.0.1:2',
      mongoDbNames: { auth: 't_auth', catalog: (category) => `t_catalog_${category}`, scrobble: 't_scrobble' },
      appEnv: { gateway: { RATE_LIMIT_PER_MINUTE: '0' } },
      onLog: (line) => lines.push(line),
      baseEnv: { ...process.env, PORT: '9999', CATEGORY: 'leaked', MONGO_DB_NAME: 'leaked', GLIBC_TUNABLES: '' },
    });
    await stack.waitReady(10_000);

    expect(stack.singleProcess).toBe(true);
    expect(new Set(stack.processes.map((p) => p.pid)).size).toBe(1);
    const env = Object.fromEntries(await Promise.all(stack.processes.map(async (p) => [p.name, await envOf(p.url)] as const)));
    for (const [name, vars] of Object.entries(env)) {
      expect({ name, PORT: vars['PORT'], PID: vars['PID'], INTERNAL_SECRET: vars['INTERNAL_SECRET'], AUTH_URL: vars['AUTH_URL'] }).toEqual({
        name,
        PORT: String(stack.process(name).port),
        PID: String(stack.process(name).pid),
        INTERNAL_SECRET: stack.internalSecret,
        AUTH_URL: stack.process('auth-service').url,
      });
    }
    expect(pick(env['catalog-books']!, ['CATEGORY', 'MONGO_DB_NAME'])).toEqual({ CATEGORY: 'books', MONGO_DB_NAME: 't_catalog_books' });
    expect(env['auth-service']!['MONGO_DB_NAME']).toBe('t_auth');
    expect(env['scrobble-service']!['MONGO_DB_NAME']).toBe('t_scrobble');
    expect(env['gateway']!['RATE_LIMIT_PER_MINUTE']).toBe('0');
    expect(env['gateway']).not.toHaveProperty('CATEGORY');
    expect(env['registry-service']).not.toHaveProperty('MONGO_DB_NAME');
    // The host's C library and V8 get the settings the separate processes get.
    expect(env['gateway']!['GLIBC_TUNABLES']).toBe(AUTH_GLIBC_TUNABLES);
    expect(env['gateway']!['NODE_OPTIONS']).toContain(SERVICE_NODE_OPTIONS);
    expect(env['gateway']!['NODE_OPTIONS']).toContain(SINGLE_PROCESS_NODE_OPTIONS);

    const said = (process: string) => lines.filter((line) => line.process === process).map((line) => line.json?.['msg']);
    expect(said('catalog-movies')).toContain('catalog-movies listening');
    expect(said('gateway')).toContain('gateway listening');
    expect(said('all-in-one')).toEqual(['hosting 7']);
    await expect(stack.process('catalog-movies').restart()).rejects.toThrow('catalog-movies runs inside the single all-in-one process');

    const host = stack.process('gateway');
    await stack.stop();
    expect(host.exitInfo).toEqual({ code: 0, signal: null });
    stack = undefined;
  });

  it('starts gateway, auth, registry and one catalog per category, each with its own environment', async () => {
    stack = await startStack({
      rootDir,
      waitForRoutes: false,
      gatewayPort: 0,
      ports: 'free',
      mongoUrl: 'mongodb://127.0.0.1:1',
      redisUrl: 'redis://127.0.0.1:2',
      redisKeyPrefix: 't:stack:',
      mongoDbNames: { auth: 't_auth', catalog: (category) => `t_catalog_${category}`, scrobble: 't_scrobble' },
      appEnv: { gateway: { RATE_LIMIT_PER_MINUTE: '0' } },
      onLog: () => undefined,
      baseEnv: { ...process.env, PORT: '9999', CATEGORY: 'leaked', MONGO_DB_NAME: 'leaked' },
    });
    await stack.waitReady(10_000);

    expect(stack.processes.map((p) => p.name).sort()).toEqual(
      ['auth-service', 'catalog-books', 'catalog-movies', 'catalog-tvshows', 'gateway', 'registry-service', 'scrobble-service'],
    );
    expect(new Set(stack.processes.map((p) => p.port)).size).toBe(7);
    const env = Object.fromEntries(await Promise.all(stack.processes.map(async (p) => [p.name, await envOf(p.url)] as const)));
    const auth = stack.process('auth-service');
    const registry = stack.process('registry-service');

    expect(stack.internalSecret.length).toBeGreaterThanOrEqual(32);
    for (const [name, vars] of Object.entries(env)) {
      expect({ name, ...pick(vars, ['INTERNAL_SECRET', 'MONGO_URL', 'REDIS_URL', 'REDIS_KEY_PREFIX', 'AUTH_URL', 'REGISTRY_URL', 'HOST']) }).toEqual({
        name,
        INTERNAL_SECRET: stack.internalSecret,
        MONGO_URL: 'mongodb://127.0.0.1:1',
        REDIS_URL: 'redis://127.0.0.1:2',
        REDIS_KEY_PREFIX: 't:stack:',
        AUTH_URL: auth.url,
        REGISTRY_URL: registry.url,
        HOST: '127.0.0.1',
      });
      expect(vars['PORT']).toBe(String(stack.process(name).port));
    }
    for (const category of ['movies', 'tvshows', 'books']) {
      const catalog = stack.process(`catalog-${category}`);
      expect(pick(env[catalog.name]!, ['CATEGORY', 'ADVERTISED_URL', 'MONGO_DB_NAME'])).toEqual({
        CATEGORY: category,
        ADVERTISED_URL: catalog.url,
        MONGO_DB_NAME: `t_catalog_${category}`,
      });
    }
    expect(env['auth-service']!['MONGO_DB_NAME']).toBe('t_auth');
    expect(env['scrobble-service']!['MONGO_DB_NAME']).toBe('t_scrobble');
    expect(env['gateway']!['RATE_LIMIT_PER_MINUTE']).toBe('0');
    expect(env['gateway']).not.toHaveProperty('CATEGORY');
    expect(env['registry-service']).not.toHaveProperty('MONGO_DB_NAME');
    expect(stack.gatewayUrl).toBe(stack.process('gateway').url);
  });

  it('gives every process its own metrics port (METRICS_PORT), none shared with another port of the stack', async () => {
    stack = await start({ INTERNAL_SECRET: undefined });
    await stack.waitReady(10_000);
    const second = await stack.startCatalogInstance('books');
    await second.waitReady(10_000);
    const ports = stack.processes.flatMap((p) => [p.port, p.metricsPort]);
    expect(new Set(ports).size).toBe(ports.length);
    for (const p of stack.processes) {
      expect(p.metricsUrl).toBe(`http://127.0.0.1:${p.metricsPort}`);
      expect((await envOf(p.url))['METRICS_PORT']).toBe(String(p.metricsPort));
    }
  });

  it('uses an INTERNAL_SECRET from the environment for every process, and generates one otherwise', async () => {
    const fromEnv = 'e'.repeat(40);
    stack = await start({ INTERNAL_SECRET: fromEnv });
    await stack.waitReady(10_000);
    expect(stack.internalSecretSource).toBe('environment');
    for (const p of stack.processes) expect((await envOf(p.url))['INTERNAL_SECRET']).toBe(fromEnv);
    await stack.stop();

    stack = await start({ INTERNAL_SECRET: undefined });
    expect(stack.internalSecretSource).toBe('generated');
    expect(stack.internalSecret).not.toBe(fromEnv);
    expect(stack.internalSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses a short INTERNAL_SECRET from the environment before starting anything, as the services would', async () => {
    expect(INTERNAL_SECRET_MIN_LENGTH).toBe(SERVICES_MIN_LENGTH);
    await expect(start({ INTERNAL_SECRET: 'too-short' })).rejects.toThrow(
      'INTERNAL_SECRET (from the environment) must be at least 32 characters',
    );
    expect(lines).toEqual([]);
  });

  it('gives the auth service a fixed malloc mmap threshold (argon2 memory goes back to the OS), unless the environment sets one', async () => {
    stack = await start({ GLIBC_TUNABLES: undefined });
    await stack.waitReady(10_000);
    expect((await envOf(stack.process('auth-service').url))['GLIBC_TUNABLES']).toBe(AUTH_GLIBC_TUNABLES);
    expect(await envOf(stack.process('gateway').url)).not.toHaveProperty('GLIBC_TUNABLES');
    await stack.stop();

    stack = await start({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' });
    await stack.waitReady(10_000);
    expect((await envOf(stack.process('auth-service').url))['GLIBC_TUNABLES']).toBe('glibc.malloc.arena_max=2');
  });

  it("gives every service a small V8 young generation and the gateway a larger one, added to the environment's NODE_OPTIONS unless that sets its own", async () => {
    stack = await start({ NODE_OPTIONS: undefined });
    await stack.waitReady(10_000);
    for (const name of ['auth-service', 'registry-service', 'catalog-movies'])
      expect((await envOf(stack.process(name).url))['NODE_OPTIONS']).toBe(SERVICE_NODE_OPTIONS);
    expect((await envOf(stack.process('gateway').url))['NODE_OPTIONS']).toBe(GATEWAY_NODE_OPTIONS);
    await stack.stop();

    stack = await start({ NODE_OPTIONS: '--max-old-space-size=192' });
    await stack.waitReady(10_000);
    expect((await envOf(stack.process('gateway').url))['NODE_OPTIONS']).toBe(`--max-old-space-size=192 ${GATEWAY_NODE_OPTIONS}`);
    expect((await envOf(stack.process('catalog-movies').url))['NODE_OPTIONS']).toBe(`--max-old-space-size=192 ${SERVICE_NODE_OPTIONS}`);
    await stack.stop();

    stack = await start({ NODE_OPTIONS: '--max-semi-space-size=32' });
    await stack.waitReady(10_000);
    expect((await envOf(stack.process('gateway').url))['NODE_OPTIONS']).toBe('--max-semi-space-size=32');
    expect((await envOf(stack.process('catalog-movies').url))['NODE_OPTIONS']).toBe('--max-semi-space-size=32');
  });

  it("caps the single process's old generation unless the environment's NODE_OPTIONS sets its own cap", () => {
    expect(withSingleProcessNodeOptions({})['NODE_OPTIONS']).toBe(SINGLE_PROCESS_NODE_OPTIONS);
    expect(withSingleProcessNodeOptions({ NODE_OPTIONS: SERVICE_NODE_OPTIONS })['NODE_OPTIONS']).toBe(`${SERVICE_NODE_OPTIONS} ${SINGLE_PROCESS_NODE_OPTIONS}`);
    expect(withSingleProcessNodeOptions({ NODE_OPTIONS: '--max-old-space-size=1024' })['NODE_OPTIONS']).toBe('--max-old-space-size=1024');
  });

  it('passes output lines to the sink, parsed, and stops the front first and the registry last, all exiting 0', async () => {
    stack = await start();
    await stack.waitReady(10_000);
    await httpGet(`${stack.gatewayUrl}/api/v1/movies`);
    const processes = [...stack.processes];
    await stack.stop();

    expect(lines).toContainEqual(
      expect.objectContaining({ process: 'gateway', stream: 'stdout', json: expect.objectContaining({ msg: 'request', path: '/api/v1/movies' }) }),
    );
    const stopping = lines.filter((l) => String(l.json?.['msg']).endsWith('stopping')).map((l) => l.process);
    expect(stopping[0]).toBe('gateway');
    expect(stopping.at(-1)).toBe('registry-service');
    expect(stopping).toHaveLength(7);
    for (const p of processes) expect(p.exitInfo).toEqual({ code: 0, signal: null });
  });

  it('names the process that crashed at start-up, with its output, without waiting for the timeout', async () => {
    stack = await start({ FAKE_CRASH: 'auth-service' });
    const startedAt = Date.now();
    const failure = await stack.waitReady(20_000).then(
      () => 'ready',
      (error: Error) => error.message,
    );
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(failure).toContain('auth-service exited with code 1 before the stack was ready');
    expect(failure).toContain('FAKE_SETTING: must be a number');
  });

  it('names every process that is not ready in time, with its last /readyz answer', async () => {
    stack = await start({ FAKE_NEVER_READY: 'registry-service' });
    // Listening first (a loaded machine may take longer than the 800 ms below to start a process).
    const registry = stack.process('registry-service');
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      if (await httpGet(`${registry.url}/readyz`).then(() => true, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await expect(stack.waitReady(800)).rejects.toThrow(/registry-service was not ready within 800 ms \(last \/readyz: 503 .*starting/);
  });

  it('starts a second catalog instance of a category on its own port', async () => {
    stack = await start();
    const second = await stack.startCatalogInstance('movies');
    await second.waitReady(10_000);
    expect(second.name).toBe('catalog-movies-2');
    expect(second.port).not.toBe(stack.process('catalog-movies').port);
    expect(pick(await envOf(second.url), ['CATEGORY', 'ADVERTISED_URL', 'MONGO_DB_NAME'])).toEqual({
      CATEGORY: 'movies',
      ADVERTISED_URL: second.url,
      MONGO_DB_NAME: 'catalog_movies',
    });
    expect(stack.processes).toContain(second);
  });

  it('starts only the apps asked for', async () => {
    stack = await start();
    await stack.stop();
    stack = await startStack({ rootDir, apps: ['registry-service'], ports: 'free', mongoUrl: 'mongodb://x:1', redisUrl: 'redis://x:2', onLog: () => undefined });
    expect(stack.processes.map((p) => p.name)).toEqual(['registry-service']);
    expect(stack.gatewayUrl).toBeUndefined();
  });
});

describe('spawnService', () => {
  it('kills a process that ignores SIGTERM once the grace period is over', async () => {
    const service = spawnService({
      name: 'registry-service',
      app: 'registry-service',
      port: await freePort(),
      rootDir,
      env: { ...process.env, FAKE_IGNORE_SIGTERM: 'registry-service' },
    });
    await service.waitReady(10_000);
    const startedAt = Date.now();
    expect(await service.stop(300)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(Date.now() - startedAt).toBeLessThan(3000);
    expect(service.running).toBe(false);
  });

  it('restarts on the same port with a new pid', async () => {
    const port = await freePort();
    const service = spawnService({ name: 'registry-service', app: 'registry-service', port, rootDir, env: { ...process.env } });
    try {
      await service.waitReady(10_000);
      const firstPid = service.pid;
      await service.restart({ env: { EXTRA: 'yes' } });
      expect(service.pid).not.toBe(firstPid);
      expect(service.port).toBe(port);
      expect((await envOf(service.url))['EXTRA']).toBe('yes');
    } finally {
      await service.stop();
    }
  });

  it('refuses to start an app that has not been built', () => {
    expect(() => spawnService({ name: 'x', app: 'gateway', port: 1, rootDir: tmpdir(), env: {} })).toThrow(
      /dist\/apps\/gateway\/main\.js does not exist; build it first/,
    );
  });
});

function pick(vars: Record<string, string>, names: string[]): Record<string, string | undefined> {
  return Object.fromEntries(names.map((name) => [name, vars[name]]));
}
