import { findWorkspaceRoot, startStack, type LogLine, type Stack, type StackOptions } from '@mt/stack';
import { rmSync } from 'node:fs';
import path from 'node:path';
import {
  deleteRedisPrefix,
  dropTestDatabase,
  startTcpProxy,
  testDbName,
  testMongoUrl,
  testRedisPrefix,
  testRedisUrl,
  type TcpProxy,
} from '@mt/testing';

export const CATEGORIES = ['movies', 'tvshows', 'books'] as const;
export type Category = (typeof CATEGORIES)[number];

/** A process that exited while nobody asked it to: the faults must never cause one. */
export interface UnexpectedExit {
  process: string;
  code: number | null;
  signal: string | null;
}

export interface ResilienceStack {
  stack: Stack;
  gatewayUrl: string;
  /** The relays in front of the shared MongoDB and Redis: `cut()` is this stack's outage only. */
  mongoProxy: TcpProxy;
  redisProxy: TcpProxy;
  /** The databases this stack owns (auth and one per category), for digests and clean-up. */
  databases: string[];
  redisKeyPrefix: string;
  /** Every output line of every process of this stack, as it arrived. */
  logs: LogLine[];
  unexpectedExits: UnexpectedExit[];
  stop(): Promise<void>;
}

export interface ResilienceStackOptions {
  /** Name used in the database names and the Redis prefix. */
  name: string;
  /** Extra variables for every process (e.g. RATE_LIMIT_PER_MINUTE). */
  env?: NodeJS.ProcessEnv;
  appEnv?: StackOptions['appEnv'];
}

/**
 * The whole stack as processes (gateway, auth, registry, one catalog per category), with its own databases
 * and Redis namespace, talking to the shared stores through TCP relays so a test can cut them for this
 * stack alone. Every log line is kept for the leak scan.
 */
export async function startResilienceStack(options: ResilienceStackOptions): Promise<ResilienceStack> {
  const [mongoProxy, redisProxy] = await Promise.all([
    startTcpProxy(testMongoUrl()),
    startTcpProxy(testRedisUrl()),
  ]);
  const redisKeyPrefix = testRedisPrefix(options.name);
  const authDb = testDbName(`${options.name}_auth`);
  const catalogDbs = Object.fromEntries(
    CATEGORIES.map((category) => [category, testDbName(`${options.name}_${category}`)]),
  );
  const logs: LogLine[] = [];
  const unexpectedExits: UnexpectedExit[] = [];
  const verbose = process.env['RESILIENCE_VERBOSE'] === '1';
  const keyDir = path.join(
    findWorkspaceRoot(),
    'tmp',
    'resilience-keys',
    redisKeyPrefix.replace(/[^A-Za-z0-9]/g, '_'),
  );

  const stack = await startStack({
    ports: 'free',
    gatewayPort: 0,
    mongoUrl: mongoProxy.url,
    redisUrl: redisProxy.url,
    redisKeyPrefix,
    mongoDbNames: {
      auth: authDb,
      catalog: (category) => catalogDbs[category] ?? testDbName(`${options.name}_${category}`),
    },
    logLevel: 'info',
    env: {
      // Tests must not depend on keys left by another run, nor leave theirs in the checkout.
      JWT_KEY_DIR: keyDir,
      ...options.env,
    },
    appEnv: options.appEnv,
    onLog: (line) => {
      logs.push(line);
      if (verbose) process.stdout.write(`[${line.process}] ${line.text}\n`);
    },
    onUnexpectedExit: (service, exit) =>
      unexpectedExits.push({ process: service.name, code: exit.code, signal: exit.signal }),
  });
  const databases = [authDb, ...Object.values(catalogDbs)];
  const gatewayUrl = stack.gatewayUrl ?? '';
  const cleanUp = async () => {
    await Promise.all([mongoProxy.close(), redisProxy.close()]);
    await deleteRedisPrefix(redisKeyPrefix).catch(() => undefined);
    await Promise.all(databases.map((db) => dropTestDatabase(db).catch(() => undefined)));
    rmSync(keyDir, { recursive: true, force: true });
  };
  try {
    await stack.waitReady(90_000);
    await waitForCategories(gatewayUrl, CATEGORIES.length, 30_000);
  } catch (error) {
    await stack.stop().catch(() => undefined);
    await cleanUp();
    throw error;
  }
  return {
    stack,
    gatewayUrl,
    mongoProxy,
    redisProxy,
    databases,
    redisKeyPrefix,
    logs,
    unexpectedExits,
    async stop() {
      // Stores back first, so the services can deregister and shut down cleanly.
      await Promise.all([mongoProxy.restore(), redisProxy.restore()]);
      await stack.stop();
      await cleanUp();
    },
  };
}

/** The gateway routes a category only once its route table has it (registration is asynchronous). */
export async function waitForCategories(gatewayUrl: string, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${gatewayUrl}/api/v1/categories`, { signal: AbortSignal.timeout(3000) });
      last = await response.text();
      if (response.status === 200 && (JSON.parse(last) as unknown[]).length >= count) return;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `the gateway did not list ${count} categories within ${timeoutMs} ms (last: ${last.slice(0, 300)})`,
  );
}
