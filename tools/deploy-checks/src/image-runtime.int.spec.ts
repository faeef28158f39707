import { freePort } from '@mt/stack';
import {
  deleteRedisPrefix,
  dropTestDatabase,
  testDbName,
  testMongoUrl,
  testRedisPrefix,
  testRedisUrl,
} from '@mt/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleApp } from './bundle';
import { imageOf, parseDockerfile } from './dockerfile';
import { readRepoFile, repoPath } from './repo';

/** The HEALTHCHECK command of an app's image (its Dockerfile target), exec form (`["node", "-e", "..."]`). */
function healthcheckCommand(app: string): string[] {
  const image = imageOf(parseDockerfile(readRepoFile('Dockerfile')), app)!;
  const args = image.instructions.find((i) => i.keyword === 'HEALTHCHECK')!.args;
  return JSON.parse(args.replace(/^(--\S+\s+)*CMD\s+/, '')) as string[];
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

/** Runs a command to completion; resolves with its exit code. */
function runCommand(command: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  const child = spawn(command[0], command.slice(1), { env, stdio: 'ignore' });
  return exitOf(child);
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

interface Running {
  app: string;
  port: number;
  child: ChildProcess;
  output: () => string;
}

/**
 * The four apps run as their images run them: the bundle alone in a directory with node_modules next
 * to it, `node --enable-source-maps main.js`, configured only through the environment.
 */
describe('the app bundles, laid out like the runtime images', () => {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'image-runtime-'));
  const prefix = testRedisPrefix('images');
  const databases = { auth: testDbName('auth'), catalog: testDbName('catalog') };
  const running: Running[] = [];
  const ports: Record<string, number> = {};
  const metricsPorts: Record<string, number> = {};

  async function start(app: string, env: Record<string, string>): Promise<Running> {
    const dir = path.join(workDir, app);
    await bundleApp(app, dir);
    symlinkSync(repoPath('node_modules'), path.join(dir, 'node_modules'), 'dir');
    const port = await freePort();
    const metricsPort = await freePort();
    ports[app] = port;
    metricsPorts[app] = metricsPort;
    let output = '';
    const child = spawn(process.execPath, ['--enable-source-maps', 'main.js'], {
      cwd: dir,
      env: {
        PATH: process.env['PATH'],
        NODE_ENV: 'production',
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        INTERNAL_SECRET: 'i'.repeat(40),
        REDIS_URL: testRedisUrl(),
        REDIS_KEY_PREFIX: prefix,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const service = { app, port, child, output: () => output };
    running.push(service);
    return service;
  }

  const readyz = async (port: number) => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    const registry = await start('registry-service', {});
    await eventually(() => readyz(registry.port), 20_000, 'registry ready');
    const auth = await start('auth-service', {
      MONGO_URL: testMongoUrl(),
      MONGO_DB_NAME: databases.auth,
      JWT_KEY_DIR: path.join(workDir, 'auth-keys'),
    });
    const catalog = await start('catalog-service', {
      CATEGORY: 'books',
      MONGO_URL: testMongoUrl(),
      MONGO_DB_NAME: databases.catalog,
      REGISTRY_URL: `http://127.0.0.1:${registry.port}`,
      INSTANCE_ID: 'image-check-books-1',
    });
    // ADVERTISED_URL defaults to http://127.0.0.1:<PORT>, which is right here.
    await eventually(() => readyz(auth.port), 30_000, 'auth ready');
    await eventually(() => readyz(catalog.port), 30_000, 'catalog ready');
    const gateway = await start('gateway', {
      AUTH_URL: `http://127.0.0.1:${auth.port}`,
      REGISTRY_URL: `http://127.0.0.1:${registry.port}`,
    });
    await eventually(() => readyz(gateway.port), 30_000, 'gateway ready');
  }, 120_000);

  afterAll(async () => {
    for (const { child } of running) if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.all([
      deleteRedisPrefix(prefix),
      dropTestDatabase(databases.auth),
      dropTestDatabase(databases.catalog),
    ]);
    rmSync(workDir, { recursive: true, force: true });
  });

  it.each(['gateway', 'auth-service', 'registry-service', 'catalog-service'])(
    "%s passes its Dockerfile's HEALTHCHECK command, which fails against a closed port",
    async (app) => {
      const command = healthcheckCommand(app);
      const env = { PATH: process.env['PATH'] };
      expect(await runCommand(command, { ...env, PORT: String(ports[app]) })).toBe(0);
      expect(await runCommand(command, { ...env, PORT: String(await freePort()) })).toBe(1);
    },
  );

  it('serves the public API through the gateway (the catalog registered itself)', async () => {
    await eventually(
      async () => {
        const response = await fetch(`http://127.0.0.1:${ports['gateway']}/api/v1/categories`);
        const body = (await response.json()) as Array<{ id: string }>;
        return response.status === 200 && body.some((category) => category.id === 'books');
      },
      20_000,
      'books listed by the gateway',
    );
  });

  it.each(['gateway', 'auth-service', 'registry-service', 'catalog-service'])(
    '%s serves Prometheus metrics on METRICS_PORT only: its API port answers 404 for /metrics',
    async (app) => {
      const scraped = await fetch(`http://127.0.0.1:${metricsPorts[app]}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toMatch(
        new RegExp(`^process_cpu_user_seconds_total\\{service="${app}"\\} `, 'm'),
      );
      const onApiPort = await fetch(`http://127.0.0.1:${ports[app]}/metrics`);
      expect(onApiPort.status).toBe(404);
    },
  );

  it('stops every service on SIGTERM with exit status 0 within 10 s', async () => {
    for (const service of [...running].reverse()) {
      const startedAt = Date.now();
      service.child.kill('SIGTERM');
      const code = await exitOf(service.child);
      expect({ app: service.app, code, withinBudget: Date.now() - startedAt < 10_000 }).toEqual({
        app: service.app,
        code: 0,
        withinBudget: true,
      });
    }
    const logs = running.map((service) => service.output()).join('\n');
    expect(logs).not.toMatch(/\bat .+\.(js|ts):\d+:\d+/); // no stack traces
  }, 60_000);
});

/**
 * The all-in-one bundle as its image runs it (bundle + node_modules, environment only): registry, auth, a
 * catalog and the gateway in one process. Its services' ports are given in MT_SERVICES (free ones here; the
 * image's own defaults are fixed ports that another stack on this machine may hold).
 */
describe('the all-in-one bundle, laid out like its runtime image', () => {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'image-runtime-aio-'));
  const prefix = testRedisPrefix('images-aio');
  const databases = { auth: testDbName('aio_auth'), catalog: testDbName('aio_catalog') };
  let child: ChildProcess;
  let output = '';
  const ports = { gateway: 0, gatewayMetrics: 0 };

  beforeAll(async () => {
    await bundleApp('all-in-one', workDir);
    symlinkSync(repoPath('node_modules'), path.join(workDir, 'node_modules'), 'dir');
    const [gateway, gatewayMetrics, auth, registry, catalog] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    Object.assign(ports, { gateway, gatewayMetrics });
    const url = (port: number) => `http://127.0.0.1:${port}`;
    const own = (port: number, env: Record<string, string> = {}) => ({ PORT: String(port), HOST: '127.0.0.1', METRICS_PORT: '0', ADVERTISED_URL: url(port), ...env });
    const plan = [
      { name: 'registry-service', app: 'registry-service', env: own(registry) },
      { name: 'auth-service', app: 'auth-service', env: own(auth, { MONGO_DB_NAME: databases.auth }) },
      { name: 'catalog-books', app: 'catalog-service', env: own(catalog, { CATEGORY: 'books', MONGO_DB_NAME: databases.catalog }) },
      { name: 'gateway', app: 'gateway', env: { ...own(gateway), METRICS_PORT: String(gatewayMetrics) } },
    ];
    child = spawn(process.execPath, ['--enable-source-maps', 'main.js'], {
      cwd: workDir,
      env: {
        PATH: process.env['PATH'],
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        INTERNAL_SECRET: 'i'.repeat(40),
        MONGO_URL: testMongoUrl(),
        REDIS_URL: testRedisUrl(),
        REDIS_KEY_PREFIX: prefix,
        AUTH_URL: url(auth),
        REGISTRY_URL: url(registry),
        JWT_KEY_DIR: path.join(workDir, 'auth-keys'),
        MT_SERVICES: JSON.stringify(plan),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(
      async () => {
        const response = await fetch(`${url(gateway)}/api/v1/categories`).catch(() => undefined);
        return response?.status === 200 && ((await response.json()) as Array<{ id: string }>).some((category) => category.id === 'books');
      },
      60_000,
      `the gateway lists books (output: ${output.slice(-500)})`,
    );
  }, 120_000);

  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await Promise.all([deleteRedisPrefix(prefix), dropTestDatabase(databases.auth), dropTestDatabase(databases.catalog)]);
    rmSync(workDir, { recursive: true, force: true });
  });

  it("passes its Dockerfile's HEALTHCHECK command on the gateway's port, which fails against a closed port", async () => {
    const command = healthcheckCommand('all-in-one');
    const env = { PATH: process.env['PATH'] };
    expect(await runCommand(command, { ...env, PORT: String(ports.gateway) })).toBe(0);
    expect(await runCommand(command, { ...env, PORT: String(await freePort()) })).toBe(1);
  });

  it("serves the gateway's metrics on its METRICS_PORT, under the gateway's name", async () => {
    const scraped = await fetch(`http://127.0.0.1:${ports.gatewayMetrics}/metrics`);
    expect(await scraped.text()).toMatch(/^process_cpu_user_seconds_total\{service="gateway"\} /m);
  });

  it('stops every service on SIGTERM with exit status 0 within 10 s, without a stack trace', async () => {
    const startedAt = Date.now();
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(output).not.toMatch(/\bat .+\.(js|ts):\d+:\d+/);
  }, 30_000);
});
