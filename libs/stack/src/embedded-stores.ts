import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

export interface ProvidedStore {
  url: string;
  /** Where it came from: the environment, a local binary we started, or mongodb-memory-server. */
  source: 'env' | 'binary' | 'memory-server';
  stop: () => Promise<void>;
}

export function findOnPath(binary: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, binary);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => socket.end(() => resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
}

/**
 * Runs the store under a tiny shell watchdog that holds a pipe from this process: when the pipe closes -
 * on stop(), or because this process died in any way, even SIGKILL - it stops the store. So a killed test
 * run or launcher never leaves a redis-server or mongod (or its temporary directory) behind.
 */
const WATCHDOG =
  'dir="$1"; store="$2"; shift 2; "$store" "$@" </dev/null & pid=$!; read -r _; kill $pid 2>/dev/null; wait $pid; rm -rf "$dir"';

function stopChild(child: ChildProcess, dir: string): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin?.end(); // the watchdog stops the store and waits for it
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

/** The watchdog leads its own process group, the store included. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function startBinary(binary: string, args: (port: number, dir: string) => string[], name: string) {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), `mt-${name}-`));
  // Own process group: a terminal's Ctrl-C must not stop the store before the services have drained.
  const child = spawn('/bin/sh', ['-c', WATCHDOG, `mt-${name}-watchdog`, dir, binary, ...args(port, dir)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  child.unref();
  // The pipe must not keep this process alive: it only has to exist while this process does.
  (child.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null)?.unref?.();
  child.stdin?.on('error', () => undefined);
  const stop = stopChild(child, dir);
  let onEarlyExit: ((code: number | null, signal: NodeJS.Signals | null) => void) | undefined;
  const exitedEarly = new Promise<never>((_, reject) => {
    onEarlyExit = (code, signal) => reject(new Error(`${binary} exited (${signal ?? `code ${code}`}) before listening on ${port}`));
    child.once('exit', onEarlyExit);
  });
  try {
    await Promise.race([waitForPort(port, 20_000), exitedEarly]);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    if (onEarlyExit) child.off('exit', onEarlyExit);
  }
  return { port, stop };
}

/** MONGO_URL when set; else a `mongod` on PATH in a temp dir; else mongodb-memory-server. */
export async function provideMongo(env: NodeJS.ProcessEnv = process.env): Promise<ProvidedStore> {
  if (env['MONGO_URL']) return { url: env['MONGO_URL'], source: 'env', stop: async () => undefined };
  const mongod = findOnPath('mongod');
  if (mongod) {
    const { port, stop } = await startBinary(
      mongod,
      (p, dir) => ['--port', String(p), '--bind_ip', '127.0.0.1', '--dbpath', dir, '--quiet'],
      'mongod',
    );
    return { url: `mongodb://127.0.0.1:${port}`, source: 'binary', stop };
  }
  try {
    // Optional fallback for developer machines: downloads a mongod binary on first use.
    const { MongoMemoryServer } = await import('mongodb-memory-server-core');
    const server = await MongoMemoryServer.create();
    return { url: server.getUri().replace(/\/$/, ''), source: 'memory-server', stop: async () => void (await server.stop()) };
  } catch (error) {
    throw new Error(
      `No MongoDB: set MONGO_URL, install mongod, or allow mongodb-memory-server to download one (${(error as Error).message})`,
    );
  }
}

/** REDIS_URL when set; else a `redis-server` on PATH on a free port without persistence. */
export async function provideRedis(env: NodeJS.ProcessEnv = process.env): Promise<ProvidedStore> {
  if (env['REDIS_URL']) return { url: env['REDIS_URL'], source: 'env', stop: async () => undefined };
  const redisServer = findOnPath('redis-server');
  if (!redisServer) {
    throw new Error('No Redis: set REDIS_URL or install redis-server (Debian/Ubuntu: apt-get install redis-server)');
  }
  const { port, stop } = await startBinary(
    redisServer,
    (p, dir) => ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    'redis',
  );
  return { url: `redis://127.0.0.1:${port}`, source: 'binary', stop };
}
