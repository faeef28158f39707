import { httpGet, delay, findWorkspaceRoot } from '@mt/stack';
import { deleteRedisPrefix, dropTestDatabase, testRedisPrefix } from '@mt/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
];

interface StatusFile {
  ready: boolean;
  gateway_url?: string;
  processes: Array<{ name: string; url: string; pid: number }>;
}

interface Launched {
  child: ChildProcess;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  statusFile: string;
}

const dirs: string[] = [];
const prefixes: string[] = [];
const databases: string[] = [];

/** Runs the CLI on free ports, in its own database names and Redis namespace. */
function launch(extraEnv: NodeJS.ProcessEnv = {}): Launched {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build (the e2e:test target does)`);
  const dir = mkdtempSync(path.join(tmpdir(), 'mt-launcher-'));
  dirs.push(dir);
  const dbPrefix = `t${randomBytes(3).toString('hex')}_`;
  const redisPrefix = testRedisPrefix('launcher');
  prefixes.push(redisPrefix);
  databases.push(`${dbPrefix}auth`, ...['movies', 'tvshows', 'books'].map((c) => `${dbPrefix}catalog_${c}`));
  const statusFile = path.join(dir, 'status.json');
  const child = spawn(
    process.execPath,
    [cli, '--port', '0', '--free-ports', '--db-prefix', dbPrefix, '--redis-prefix', redisPrefix, '--status-file', statusFile],
    { cwd: root, env: { ...process.env, JWT_KEY_DIR: path.join(dir, 'keys'), ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exit, statusFile };
}

async function readStatus(file: string, deadline: number): Promise<StatusFile> {
  while (Date.now() < deadline) {
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as StatusFile;
      } catch {
        // being written: read again
      }
    }
    await delay(50);
  }
  throw new Error(`no status file ${file} before the deadline`);
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

afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await Promise.all(prefixes.map(deleteRedisPrefix));
  await Promise.all(databases.map((db) => dropTestDatabase(db).catch(() => undefined)));
});

describe('npm start (the stack launcher CLI)', () => {
  it('brings all six processes up with every /readyz 200 within 20 s, and Ctrl-C stops them all with exit code 0', async () => {
    const startedAt = Date.now();
    const deadline = startedAt + 20_000;
    const launched = launch();
    try {
      const status = await readStatus(launched.statusFile, deadline);
      expect(status.processes.map((p) => p.name).sort()).toEqual(EXPECTED_PROCESSES);

      const readiness = await Promise.all(status.processes.map(async (p) => [p.name, await readyBefore(p.url, deadline)]));
      expect(Object.fromEntries(readiness)).toEqual(Object.fromEntries(EXPECTED_PROCESSES.map((name) => [name, 'ready'])));
      for (const p of status.processes) expect(isAlive(p.pid)).toBe(true);

      // The CLI reports readiness and the URLs a user needs.
      const gatewayUrl = status.gateway_url!;
      const deadlineForBanner = Date.now() + 10_000;
      while (!launched.output().includes('Press Ctrl-C to stop.') && Date.now() < deadlineForBanner) await delay(50);
      expect(launched.output()).toContain(`API:   ${gatewayUrl}/api/v1`);
      expect(launched.output()).toContain(`Docs:  ${gatewayUrl}/api/v1/docs`);

      launched.child.kill('SIGINT');
      const exit = await withDeadline(launched.exit, 15_000, 'stopping the stack');
      expect(exit).toEqual({ code: 0, signal: null });
      expect(status.processes.filter((p) => isAlive(p.pid)).map((p) => p.name)).toEqual([]);
      expect(launched.output()).toContain('Stopped.');
    } finally {
      launched.child.kill('SIGKILL');
    }
  });

  it('reports which process crashed at start-up and why, stops the others and exits 1', async () => {
    // The registry rejects a malformed INSTANCE_TTL_MS at start-up (the other services ignore it).
    const launched = launch({ INSTANCE_TTL_MS: 'soon' });
    try {
      const exit = await withDeadline(launched.exit, 30_000, 'the failed start-up');
      expect(exit).toEqual({ code: 1, signal: null });
      expect(launched.output()).toMatch(/The stack did not start: [\s\S]*registry-service exited with code 1/);
      expect(launched.output()).toContain('INSTANCE_TTL_MS');
      const status = JSON.parse(readFileSync(launched.statusFile, 'utf8')) as StatusFile;
      expect(status.processes.length).toBe(EXPECTED_PROCESSES.length);
      expect(status.processes.filter((p) => isAlive(p.pid)).map((p) => p.name)).toEqual([]);
    } finally {
      launched.child.kill('SIGKILL');
    }
  });
});
