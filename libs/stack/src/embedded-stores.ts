// Relative imports only: Jest's global setup loads this file outside the module mapper (see libs/testing).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { freePort } from './free-port';
import { driverReason, reachMongo, reachRedis, shownUrl, waitForStore } from './store-check';

export interface ProvidedStore {
  url: string;
  /** Where it came from: the environment, a local binary we started, or mongodb-memory-server. */
  source: 'env' | 'binary' | 'memory-server';
  stop: () => Promise<void>;
}

export interface ProvideOptions {
  /** Progress and warnings worth a line (a store still unreachable, a standalone MongoDB...). */
  note?: (text: string) => void;
  /** How long a store named by the environment may stay unreachable before giving up (default 10 s). */
  waitMs?: number;
}

/** The replica set of the MongoDB the launcher starts itself: transactions need one (a single node is enough). */
export const EMBEDDED_REPLICA_SET = 'rs0';

/** What to do without MongoDB: every way out, each on one line. */
export const MONGO_ADVICE = [
  'To run without one here, do one of:',
  "  - use a MongoDB you have: MONGO_URL='mongodb://host:27017/?replicaSet=rs0' npm start (a replica set; a single node is enough)",
  `  - start one in a container: docker run -d --name mt-mongo -p 27017:27017 mongo:7 --replSet ${EMBEDDED_REPLICA_SET} && sleep 5 && docker exec mt-mongo mongosh --quiet --eval 'rs.initiate()'`,
  "    then: MONGO_URL='mongodb://127.0.0.1:27017/?directConnection=true' npm start",
  '  - install MongoDB Community Server (its apt/yum/brew packages) so `mongod` is on PATH: npm start runs it',
].join('\n');

const REDIS_ADVICE =
  'Start Redis there, or set REDIS_URL to one that runs, or unset REDIS_URL and install redis-server ' +
  '(Debian/Ubuntu: apt-get install redis-server): npm start then runs one itself.';

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

export async function startBinary(binary: string, args: (port: number, dir: string) => string[], name: string) {
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

/**
 * MONGO_URL when set (checked: reachable within `waitMs`); else a `mongod` on PATH in a temporary directory,
 * else mongodb-memory-server (which downloads a `mongod` on first use): both started as a single-node
 * replica set, since the catalog's list writes run in transactions.
 */
export async function provideMongo(env: NodeJS.ProcessEnv = process.env, options: ProvideOptions = {}): Promise<ProvidedStore> {
  const given = env['MONGO_URL'];
  if (given) {
    const facts = await waitForStore('MongoDB', given, (timeoutMs) => reachMongo(given, timeoutMs), {
      ...options,
      advice: `Start MongoDB there, set MONGO_URL to one that runs, or unset MONGO_URL (see README, "MongoDB").`,
    });
    if (!facts.replicaSet) {
      options.note?.(
        `MongoDB at ${shownUrl(given)} is a standalone server, not a replica set: the catalog's list operations ` +
          'need transactions (a single-node replica set is enough; see README, "MongoDB")',
      );
    }
    return { url: given, source: 'env', stop: async () => undefined };
  }
  const mongod = findOnPath('mongod');
  if (mongod) {
    const { port, stop } = await startBinary(
      mongod,
      (p, dir) => ['--port', String(p), '--bind_ip', '127.0.0.1', '--dbpath', dir, '--replSet', EMBEDDED_REPLICA_SET, '--oplogSize', '128', '--quiet'],
      'mongod',
    );
    try {
      await initiateReplicaSet(port);
    } catch (error) {
      await stop();
      throw new Error(`${mongod} started on port ${port}, but its replica set could not be initiated: ${driverReason(error)}`);
    }
    return { url: `mongodb://127.0.0.1:${port}/?replicaSet=${EMBEDDED_REPLICA_SET}`, source: 'binary', stop };
  }
  return startMemoryReplicaSet(options);
}

/** Makes a fresh `mongod --replSet` the primary of a one-member set, reachable as 127.0.0.1:<port>. */
export async function initiateReplicaSet(port: number, timeoutMs = 30_000): Promise<void> {
  const connection = mongoose.createConnection();
  try {
    await connection.openUri(`mongodb://127.0.0.1:${port}/?directConnection=true`, { serverSelectionTimeoutMS: 10_000 });
    const admin = connection.getClient().db().admin();
    const hello = await admin.command({ hello: 1 });
    if (!hello['setName']) {
      await admin.command({ replSetInitiate: { _id: EMBEDDED_REPLICA_SET, members: [{ _id: 0, host: `127.0.0.1:${port}` }] } });
    }
    // The election takes a moment: writes (and transactions) work once this node is the writable primary.
    for (const deadline = Date.now() + timeoutMs; !(await admin.command({ hello: 1 }))['isWritablePrimary']; ) {
      if (Date.now() > deadline) throw new Error(`not the writable primary within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await connection.close(true).catch(() => undefined);
  }
}

/**
 * The last resort: mongodb-memory-server as a one-member replica set. Its own console output (download
 * errors, a stack trace) is held back: when it fails, one message says what to do instead.
 */
async function startMemoryReplicaSet(options: ProvideOptions): Promise<ProvidedStore> {
  options.note?.('MongoDB: no MONGO_URL and no mongod on PATH; starting mongodb-memory-server (it downloads a mongod on first use)');
  const held = { warn: console.warn, error: console.error, retries: process.env['MONGOMS_MAX_RETRIES'] };
  console.warn = () => undefined;
  console.error = () => undefined;
  // One download attempt (its default is 3, with 1 s, 2 s, 4 s between): offline, the answer comes in time.
  process.env['MONGOMS_MAX_RETRIES'] = held.retries ?? '1';
  try {
    const { MongoMemoryReplSet } = await import('mongodb-memory-server-core');
    const replSet = await MongoMemoryReplSet.create({ replSet: { count: 1, name: EMBEDDED_REPLICA_SET, storageEngine: 'wiredTiger' } });
    return { url: replSet.getUri(), source: 'memory-server', stop: async () => void (await replSet.stop({ doCleanup: true })) };
  } catch (error) {
    throw new NoMongoError(memoryServerFailure(error));
  } finally {
    console.warn = held.warn;
    console.error = held.error;
    if (held.retries === undefined) delete process.env['MONGOMS_MAX_RETRIES'];
  }
}

/** mongodb-memory-server's failure in one line: a DownloadError carries the URL and the network's reason. */
function memoryServerFailure(error: unknown): string {
  const download = error as { url?: unknown; msg?: unknown };
  if (typeof download.url === 'string' && typeof download.msg === 'string') {
    return `downloading ${new URL(download.url).host} failed: ${download.msg}; no internet access?`;
  }
  return (driverReason(error).split('\n')[0] ?? '').trim();
}

/** No MONGO_URL, no mongod on PATH, and mongodb-memory-server could not provide one. */
export class NoMongoError extends Error {
  constructor(readonly reason: string) {
    super(`no MongoDB: MONGO_URL is not set, no mongod is on PATH, and mongodb-memory-server could not get one (${reason}).\n${MONGO_ADVICE}`);
    this.name = 'NoMongoError';
  }
}

/** REDIS_URL when set (checked: reachable within `waitMs`); else a `redis-server` on PATH on a free port without persistence. */
export async function provideRedis(env: NodeJS.ProcessEnv = process.env, options: ProvideOptions = {}): Promise<ProvidedStore> {
  const given = env['REDIS_URL'];
  if (given) {
    await waitForStore('Redis', given, (timeoutMs) => reachRedis(given, timeoutMs), { ...options, advice: REDIS_ADVICE });
    return { url: given, source: 'env', stop: async () => undefined };
  }
  const redisServer = findOnPath('redis-server');
  if (!redisServer) {
    throw new Error(
      'no Redis: REDIS_URL is not set and no redis-server is on PATH.\n  Install it (Debian/Ubuntu: apt-get install redis-server; ' +
        'macOS: brew install redis), start one in a container (docker run -d -p 6379:6379 redis:7) and set ' +
        'REDIS_URL=redis://127.0.0.1:6379, or point REDIS_URL at a Redis you have.',
    );
  }
  const { port, stop } = await startBinary(
    redisServer,
    (p, dir) => ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    'redis',
  );
  return { url: `redis://127.0.0.1:${port}`, source: 'binary', stop };
}
