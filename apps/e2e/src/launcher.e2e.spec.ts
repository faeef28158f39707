import { httpGet, delay, findWorkspaceRoot } from '@mt/stack';
import { closedPort, deleteRedisPrefix, dropTestDatabase, testRedisPrefix } from '@mt/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `npm start` is `npm run build && node dist/libs/stack/cli.js`; the Nx target of this suite has built
 * everything already, so the test runs the built CLI exactly as `npm start` does after its build.
 */
const root = findWorkspaceRoot();
const cli = path.join(root, 'dist/libs/stack/cli.js');
const EXPECTED_PROCESSES = [
  'auth-service',
  'catalog-books',
  'catalog-movies',
  'catalog-tvshows',
  'gateway',
  'registry-service',
  'scrobble-service',
];
const INTERNAL_SECRET_HEADER = 'x-mt-internal-secret';

interface StatusFile {
  ready: boolean;
  gateway_url?: string;
  processes: Array<{ name: string; url: string; metrics_url: string; pid: number }>;
  attach?: { env: Record<string, string>; internal_secret: string; command: string };
}

interface Launched {
  child: ChildProcess;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  statusFile: string;
  /** Milliseconds since the launch. */
  elapsed: () => number;
}

const dirs: string[] = [];
const prefixes: string[] = [];
const databases: string[] = [];
const children: ChildProcess[] = [];

/** Runs the CLI on free ports, in its own database names and Redis namespace. */
function launch(extraEnv: NodeJS.ProcessEnv = {}, extraArgs: string[] = []): Launched {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build (the e2e:test target does)`);
  const dir = mkdtempSync(path.join(tmpdir(), 'mt-launcher-'));
  dirs.push(dir);
  const dbPrefix = `t${randomBytes(3).toString('hex')}_`;
  const redisPrefix = testRedisPrefix('launcher');
  prefixes.push(redisPrefix);
  databases.push(`${dbPrefix}auth`, ...['movies', 'tvshows', 'books'].map((c) => `${dbPrefix}catalog_${c}`));
  const statusFile = path.join(dir, 'status.json');
  const startedAt = Date.now();
  const child = spawn(
    process.execPath,
    [cli, '--port', '0', '--free-ports', '--db-prefix', dbPrefix, '--redis-prefix', redisPrefix, '--status-file', statusFile, ...extraArgs],
    {
      cwd: root,
      // No INTERNAL_SECRET unless a test gives one: the launcher generates it.
      env: { ...process.env, INTERNAL_SECRET: undefined, LOG_LEVEL: undefined, JWT_KEY_DIR: path.join(dir, 'keys'), ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exit, statusFile, elapsed: () => Date.now() - startedAt };
}

async function readStatus(file: string, deadline: number, ready = false): Promise<StatusFile> {
  while (Date.now() < deadline) {
    if (existsSync(file)) {
      try {
        const status = JSON.parse(readFileSync(file, 'utf8')) as StatusFile;
        if (status.ready || !ready) return status;
      } catch {
        // being written: read again
      }
    }
    await delay(50);
  }
  throw new Error(`no${ready ? ' ready' : ''} status file ${file} before the deadline`);
}

/** Polls /readyz until 200; returns the last answer (or error) otherwise. */
async function readyBefore(url: string, deadline: number): Promise<string> {
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const answer = await httpGet(`${url}/readyz`, 1000);
      if (answer.status === 200) return 'ready';
      last = `${answer.status} ${answer.body}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await delay(100);
  }
  return last;
}

async function waitForOutput(launched: Launched, text: string | RegExp, timeoutMs: number): Promise<void> {
  const matches = () => (typeof text === 'string' ? launched.output().includes(text) : text.test(launched.output()));
  for (const deadline = Date.now() + timeoutMs; !matches() && Date.now() < deadline; ) await delay(50);
  expect(launched.output()).toMatch(text);
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The readable lines of the launcher's output at INFO or above (lines of the services and of the launcher). */
const linesAtInfoOrAbove = (text: string) => text.split('\n').filter((line) => /^\[[\w-]+\]\s+(INFO|WARN|ERROR|FATAL)\b/.test(line));
const STACK_TRACE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await Promise.all(prefixes.map(deleteRedisPrefix));
  await Promise.all(databases.map((db) => dropTestDatabase(db).catch(() => undefined)));
});

describe('npm start (the stack launcher CLI)', () => {
  describe('a whole stack, with a generated INTERNAL_SECRET', () => {
    let launched: Launched;
    let status: StatusFile;
    let bannerAt = 0;
    beforeAll(() => {
      launched = launch();
    });

    it('brings all seven processes up with every /readyz 200 within 20 s', async () => {
      const deadline = Date.now() + 20_000 - launched.elapsed();
      status = await readStatus(launched.statusFile, deadline);
      expect(status.processes.map((p) => p.name).sort()).toEqual(EXPECTED_PROCESSES);

      const readiness = await Promise.all(status.processes.map(async (p) => [p.name, await readyBefore(p.url, deadline)]));
      expect(Object.fromEntries(readiness)).toEqual(Object.fromEntries(EXPECTED_PROCESSES.map((name) => [name, 'ready'])));
      for (const p of status.processes) expect(isAlive(p.pid)).toBe(true);

      // The CLI reports readiness and the URLs a user needs.
      await waitForOutput(launched, 'Press Ctrl-C to stop.', 10_000);
      bannerAt = launched.output().length;
      status = await readStatus(launched.statusFile, Date.now() + 5000, true);
      expect(launched.output()).toContain(`API:   ${status.gateway_url}/api/v1`);
      expect(launched.output()).toContain(`Docs:  ${status.gateway_url}/api/v1/docs`);
    });

    it('prints at most 12 lines from launch to the banner at INFO: the stores, then only problems', async () => {
      expect(bannerAt).toBeGreaterThan(0);
      const beforeBanner = launched.output().split('Media tracker is running.')[0]!;
      const lines = beforeBanner.split('\n').filter((line) => line.trim() !== '');
      // The lines past the twelfth, so that a failure shows what was printed.
      expect(lines.slice(12)).toEqual([]);
      // Start-up steps (connections, registrations, route tables, migrations) are debug lines.
      expect(linesAtInfoOrAbove(beforeBanner).filter((line) => /\bINFO\b/.test(line))).toEqual([]);
    });

    it('logs no INFO line for 30 s after readiness while idle (heartbeats, route fetches and probes are debug)', async () => {
      expect(bannerAt).toBeGreaterThan(0);
      await delay(30_000);
      expect(linesAtInfoOrAbove(launched.output().slice(bannerAt))).toEqual([]);
    }, 60_000);

    it("shows a request's X-Request-Id in its readable log line: one INFO line, the gateway's access log", async () => {
      const requestId = `launcher-${randomBytes(4).toString('hex')}`;
      const before = launched.output().length;
      const response = await fetch(`${status.gateway_url}/api/v1/movies?limit=1`, { headers: { 'X-Request-Id': requestId } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBe(requestId);
      await waitForOutput(launched, new RegExp(`request_id=${requestId}`), 5000);
      const lines = linesAtInfoOrAbove(launched.output().slice(before));
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^\\[gateway\\]\\s+INFO request GET /api/v1/movies 200 [\\d.]+ms request_id=${requestId}$`))]);
    });

    it('serves every process\'s metrics on its own metrics port, listed in the banner; the API ports answer 404 for /metrics', async () => {
      const ports = status.processes.flatMap((p) => [p.url, p.metrics_url]);
      expect(new Set(ports).size).toBe(EXPECTED_PROCESSES.length * 2);
      for (const p of status.processes) {
        expect(launched.output()).toMatch(new RegExp(`${p.name}\\s+${p.url}\\s+${p.metrics_url}\\s+pid ${p.pid}`));
        const scraped = await fetch(`${p.metrics_url}/metrics`);
        expect({ name: p.name, status: scraped.status, type: scraped.headers.get('content-type') }).toEqual({
          name: p.name,
          status: 200,
          type: expect.stringMatching(/^text\/plain; version=0\.0\.4/),
        });
        expect(await scraped.text()).toMatch(/^# TYPE http_requests_total counter$/m);
        const onApiPort = await fetch(`${p.url}/metrics`);
        expect({ name: p.name, status: onApiPort.status }).toEqual({ name: p.name, status: 404 });
        expect(await onApiPort.json()).toMatchObject({ status: 404, code: 'not_found' });
      }
    });

    it("keeps instance ids, hosts and pids for the gateway's metrics port: the public /health shows statuses only", async () => {
      const gateway = status.processes.find((p) => p.name === 'gateway')!;
      const publicHealth = (await (await fetch(`${status.gateway_url}/health`)).json()) as { services: Record<string, unknown> };
      expect(publicHealth.services).toEqual({
        auth: { status: 'healthy' },
        registry: { status: 'healthy' },
        'service:auth': { status: 'healthy' },
        'service:scrobble': { status: 'healthy' },
        'catalog:books': { status: 'healthy' },
        'catalog:movies': { status: 'healthy' },
        'catalog:tvshows': { status: 'healthy' },
      });
      const detailed = (await (await fetch(`${gateway.metrics_url}/health`)).json()) as { services: Record<string, { base_url?: string; instance_id?: string }> };
      const movies = status.processes.find((p) => p.name === 'catalog-movies')!;
      const entry = Object.entries(detailed.services).find(([name]) => name.startsWith('catalog:movies:'));
      expect(entry?.[1]).toMatchObject({ status: 'healthy', service: 'movies', base_url: movies.url, instance_id: expect.stringContaining(String(movies.pid)) });
    });

    it('says how to attach another instance, with the secret in a file only the user can read and never printed', async () => {
      const attach = status.attach!;
      const secretFile = /read from (\S+) /.exec(attach.internal_secret)?.[1];
      expect(secretFile).toBeDefined();
      expect(statSync(secretFile!).mode & 0o777).toBe(0o600);
      const secret = readFileSync(secretFile!, 'utf8');
      expect(secret.length).toBeGreaterThanOrEqual(32);
      expect(attach.command).toContain(`INTERNAL_SECRET="$(cat ${secretFile})"`);
      expect(launched.output()).toContain(attach.command);
      expect(launched.output()).not.toContain(secret);
      expect(readFileSync(launched.statusFile, 'utf8')).not.toContain(secret);
      // It is the secret the stack runs with.
      const registry = status.processes.find((p) => p.name === 'registry-service')!;
      const routes = await fetch(`${registry.url}/internal/routes`, { headers: { [INTERNAL_SECRET_HEADER]: secret } });
      expect(routes.status).toBe(200);
    });

    it('Ctrl-C stops every process with exit code 0, and the secret file goes with them', async () => {
      const secretFile = /read from (\S+) /.exec(status.attach!.internal_secret)![1]!;
      launched.child.kill('SIGINT');
      const exit = await withDeadline(launched.exit, 15_000, 'stopping the stack');
      expect(exit).toEqual({ code: 0, signal: null });
      expect(status.processes.filter((p) => isAlive(p.pid)).map((p) => p.name)).toEqual([]);
      expect(launched.output()).toContain('Stopped.');
      expect(existsSync(secretFile)).toBe(false);
    });
  });

  it('reports which process crashed at start-up and why, stops the others and exits 1', async () => {
    // The registry rejects a malformed INSTANCE_TTL_MS at start-up (the other services ignore it).
    const launched = launch({ INSTANCE_TTL_MS: 'soon' });
    const exit = await withDeadline(launched.exit, 30_000, 'the failed start-up');
    expect(exit).toEqual({ code: 1, signal: null });
    expect(launched.output()).toMatch(/The stack did not start: [\s\S]*registry-service exited with code 1/);
    expect(launched.output()).toContain('INSTANCE_TTL_MS');
    const status = JSON.parse(readFileSync(launched.statusFile, 'utf8')) as StatusFile;
    expect(status.processes.length).toBe(EXPECTED_PROCESSES.length);
    expect(status.processes.filter((p) => isAlive(p.pid)).map((p) => p.name)).toEqual([]);
  });

  describe('start-up failures read in one glance: exit ≠ 0 within 20 s, the store and its address named, no stack trace, < 15 lines', () => {
    it.each([
      ['Redis', 'REDIS_URL', 'redis'],
      ['MongoDB', 'MONGO_URL', 'mongodb'],
    ])('an unreachable %s (%s)', async (store, variable, scheme) => {
      const port = await closedPort();
      const address = `${scheme}://127.0.0.1:${port}`;
      const launched = launch({ [variable]: address });
      const exit = await withDeadline(launched.exit, 20_000, `the launcher with an unreachable ${store}`);
      const output = launched.output();
      expect(exit.code).not.toBe(0);
      expect(output).toContain(`The stack did not start: ${store} at ${address} is not reachable: connect ECONNREFUSED 127.0.0.1:${port}`);
      expect(output).toContain(variable);
      expect(output).not.toMatch(STACK_TRACE);
      expect(output.trim().split('\n').length).toBeLessThan(15);
    });

    it('no MongoDB at all (no MONGO_URL, no mongod on PATH, no download possible): one message saying what to do', async () => {
      const emptyDir = mkdtempSync(path.join(tmpdir(), 'mt-no-mongod-'));
      dirs.push(emptyDir);
      const launched = launch({
        MONGO_URL: undefined,
        PATH: emptyDir, // no mongod (the launcher and the services run on process.execPath)
        MONGOMS_DOWNLOAD_DIR: emptyDir, // no binary cached from an earlier download
        MONGOMS_DOWNLOAD_URL: `http://127.0.0.1:${await closedPort()}/mongodb.tgz`, // as offline as it gets
      });
      const exit = await withDeadline(launched.exit, 20_000, 'the launcher without MongoDB');
      const output = launched.output();
      expect(exit.code).not.toBe(0);
      expect(output).toContain('The stack did not start: no MongoDB: MONGO_URL is not set, no mongod is on PATH');
      for (const way of ["MONGO_URL='mongodb://host:27017/?replicaSet=rs0'", 'docker run', 'mongod` is on PATH']) expect(output).toContain(way);
      expect(output).not.toMatch(STACK_TRACE);
      expect(output).not.toContain('Could NOT download');
      expect(output.trim().split('\n').length).toBeLessThan(15);
    });

    it('a short INTERNAL_SECRET in the environment is refused, as every service would refuse it', async () => {
      const launched = launch({ INTERNAL_SECRET: 'only-20-characters!!' });
      const exit = await withDeadline(launched.exit, 20_000, 'the launcher with a short secret');
      expect(exit.code).toBe(1);
      expect(launched.output()).toContain('INTERNAL_SECRET (from the environment) must be at least 32 characters');
      expect(launched.output()).not.toContain('only-20-characters!!');
      expect(existsSync(launched.statusFile)).toBe(false);
    });
  });

  it('runs with the INTERNAL_SECRET of the environment, and another instance joins with the command it prints', async () => {
    const secret = randomBytes(36).toString('base64url');
    const launched = launch({ INTERNAL_SECRET: secret }, ['--apps', 'registry-service,catalog-service', '--categories', 'books']);
    try {
      const status = await readStatus(launched.statusFile, Date.now() + 30_000, true);
      const registry = status.processes.find((p) => p.name === 'registry-service')!;
      const routesWith = (value: string) => fetch(`${registry.url}/internal/routes`, { headers: { [INTERNAL_SECRET_HEADER]: value } });
      expect((await routesWith(secret)).status).toBe(200);
      expect((await routesWith('x'.repeat(40))).status).toBe(401);
      expect(status.attach!.internal_secret).toBe('the one in your environment');
      expect(status.attach!.command).not.toContain('INTERNAL_SECRET');
      expect(launched.output()).not.toContain(secret);

      // The printed command, run as a user would (with the same environment), attaches a second books catalog.
      const joined = spawn('/bin/sh', ['-c', status.attach!.command], {
        cwd: root,
        env: { ...process.env, INTERNAL_SECRET: secret, LOG_LEVEL: 'warn' },
        stdio: 'ignore',
        detached: true,
      });
      children.push(joined);
      try {
        expect(await readyBefore(status.attach!.env['ADVERTISED_URL']!, Date.now() + 30_000)).toBe('ready');
        const routes = (await (await routesWith(secret)).json()) as { services: Array<{ service: string; instances: Array<{ base_url: string }> }> };
        const books = routes.services.filter((s) => s.service === 'books');
        expect(books.flatMap((s) => s.instances.map((i) => i.base_url)).sort()).toEqual(
          [status.processes.find((p) => p.name === 'catalog-books')!.url, status.attach!.env['ADVERTISED_URL']].sort(),
        );
      } finally {
        const gone = new Promise((resolve) => joined.once('exit', resolve));
        process.kill(-joined.pid!, 'SIGTERM');
        await withDeadline(gone, 15_000, 'stopping the attached instance');
      }
      launched.child.kill('SIGINT');
      expect(await withDeadline(launched.exit, 15_000, 'stopping the stack')).toEqual({ code: 0, signal: null });
    } finally {
      launched.child.kill('SIGKILL');
    }
  });
});
