import { findWorkspaceRoot, startStack, type LogLine, type Stack, type StackOptions } from '@mt/stack';
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
import mongoose from 'mongoose';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ApiClient, ConformanceError } from './api-client';
import { recordConformance } from './conformance-report';
import { startSecondInstances, TWO_OF_EVERYTHING } from './two-of-everything';
import { OpenApiConformance, type OpenApiDocument } from './openapi-conformance';

export const CATEGORIES = ['books', 'movies', 'tvshows'] as const;

/**
 * The suite against the stack in single-process mode (MT_SINGLE_PROCESS=1, as `npm start` reads it: the
 * `test:single-process` target sets it): every service hosted by one all-in-one process.
 */
export const SINGLE_PROCESS = process.env['MT_SINGLE_PROCESS'] === '1';

/**
 * A test that needs one service as a process of its own (it kills or restarts it): skipped in single-process
 * mode, where that process is the whole stack, with `reason` in the skipped test's name.
 */
export function itWithSeparateProcesses(name: string, reason: string, fn: jest.ProvidesCallback, timeout?: number): void {
  if (SINGLE_PROCESS) it.skip(`${name} (skipped in single-process mode: ${reason})`, fn, timeout);
  else it(name, fn, timeout);
}
export type Category = (typeof CATEGORIES)[number];

export interface TestStackOptions {
  /** Names the databases, the Redis namespace and the conformance entry of this stack. */
  name: string;
  /** Put TCP relays in front of MongoDB and Redis, so the test can cut the stores for this stack alone. */
  faultProxies?: boolean;
  env?: NodeJS.ProcessEnv;
  appEnv?: StackOptions['appEnv'];
}

export interface EventuallyOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

export interface TestStack {
  readonly stack: Stack;
  readonly gatewayUrl: string;
  /** Every gateway: one, or two with MT_TWO_OF_EVERYTHING=1 (then `api` asks them in turn). */
  readonly gatewayUrls: readonly string[];
  /** Talks to the gateway; every response is checked against the published OpenAPI document. */
  readonly api: ApiClient;
  readonly conformance: OpenApiConformance;
  /** Every output line of every process of this stack, as it arrived. */
  readonly logs: LogLine[];
  /** Present with `faultProxies`: the relays in front of the shared stores. */
  readonly mongoProxy?: TcpProxy;
  readonly redisProxy?: TcpProxy;
  /** A client for one process (a probe of the auth service...), checked against the same document. */
  clientFor(url: string): ApiClient;
  /** Retries `fn` until it stops throwing (assertions included); rethrows its last error at the deadline. */
  eventually<T>(fn: () => Promise<T>, options?: EventuallyOptions): Promise<T>;
  /**
   * The user's entries on their `category` list, read straight from MongoDB: after an account deletion
   * the lists are gone, and HTTP cannot show that (a deleted user has no credential left to ask with).
   */
  countListEntries(category: string, userId: string): Promise<number>;
  /** Stops the processes, drops the databases and the Redis namespace, records and prints the conformance summary. */
  stop(): Promise<void>;
}

const LIST_ENTRIES_COLLECTION = 'list_entries';

/**
 * One whole stack as processes (the way `npm start` runs it; one process in single-process mode) in its own databases and Redis namespace,
 * ready (every /readyz 200, every category routed), with the published OpenAPI document loaded.
 */
export async function startTestStack(options: TestStackOptions): Promise<TestStack> {
  const [mongoProxy, redisProxy] = options.faultProxies
    ? await Promise.all([startTcpProxy(testMongoUrl()), startTcpProxy(testRedisUrl())])
    : [undefined, undefined];
  const redisKeyPrefix = testRedisPrefix(`e2e-${options.name}`);
  const authDb = testDbName(`e2e_${options.name}_auth`);
  const scrobbleDb = testDbName(`e2e_${options.name}_scrobble`);
  const catalogDbs: Record<string, string> = Object.fromEntries(
    CATEGORIES.map((category) => [category, testDbName(`e2e_${options.name}_${category}`)]),
  );
  const keyDir = path.join(
    findWorkspaceRoot(),
    'tmp',
    'e2e-keys',
    redisKeyPrefix.replace(/[^A-Za-z0-9]/g, '_'),
  );
  const logs: LogLine[] = [];
  const verbose = process.env['E2E_VERBOSE'] === '1';

  const closeProxies = () => Promise.all([mongoProxy?.close(), redisProxy?.close()]);
  const stack = await startStack({
    singleProcess: SINGLE_PROCESS,
    ports: 'free',
    gatewayPort: 0,
    mongoUrl: mongoProxy?.url ?? testMongoUrl(),
    redisUrl: redisProxy?.url ?? testRedisUrl(),
    redisKeyPrefix,
    mongoDbNames: {
      auth: authDb,
      // A category a suite starts later (a test-only one) gets its database here, dropped with the rest.
      catalog: (category) => (catalogDbs[category] ??= testDbName(`e2e_${options.name}_${category}`)),
      scrobble: scrobbleDb,
    },
    // Debug: the services log their request lines at debug (the gateway's access log is at INFO), and
    // the suites follow a request id into the service that served it.
    logLevel: 'debug',
    // A generated signing key per stack, kept out of the checkout's default key directory.
    // No provider on the internet: a suite that wants one points it at the replay server in `env`.
    env: { JWT_KEY_DIR: keyDir, OPENLIBRARY_ENABLED: 'false', ...options.env },
    appEnv: options.appEnv,
    onLog: (line) => {
      logs.push(line);
      if (verbose) process.stdout.write(`[${line.process}] ${line.text}\n`);
    },
  }).catch(async (error: unknown) => {
    await closeProxies();
    throw error;
  });

  const cleanUp = async () => {
    await closeProxies();
    await deleteRedisPrefix(redisKeyPrefix).catch(() => undefined);
    const databases = [authDb, scrobbleDb, ...Object.values(catalogDbs)];
    await Promise.all(databases.map((db) => dropTestDatabase(db).catch(() => undefined)));
    rmSync(keyDir, { recursive: true, force: true });
  };

  let conformance: OpenApiConformance;
  let gatewayUrl: string;
  try {
    await stack.waitReady(90_000);
    if (!stack.gatewayUrl) throw new Error('the stack has no gateway');
    gatewayUrl = stack.gatewayUrl;
    await eventually(
      async () => {
        const answer = await fetch(`${gatewayUrl}/api/v1/categories`, { signal: AbortSignal.timeout(3000) });
        const categories = (await answer.json()) as Array<{ id: string }>;
        if (categories.length !== CATEGORIES.length)
          throw new Error(`categories so far: ${JSON.stringify(categories)}`);
      },
      { timeoutMs: 30_000 },
    );
    // Fetched only now: the merged document has every service's paths once they are all registered (the
    // auth service registers in the background, so its paths may come a moment after the categories).
    const document = await eventually(
      async () => {
        const answer = await fetch(`${gatewayUrl}/api/v1/openapi.json`, { signal: AbortSignal.timeout(5000) });
        if (answer.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${answer.status}`);
        const parsed = (await answer.json()) as OpenApiDocument;
        if (!parsed.paths['/api/v1/auth/login']) throw new Error('the auth service is not registered yet');
        return parsed;
      },
      { timeoutMs: 30_000 },
    );
    conformance = new OpenApiConformance(document);
    if (TWO_OF_EVERYTHING) await startSecondInstances(stack, CATEGORIES);
  } catch (error) {
    await stack.stop().catch(() => undefined);
    await cleanUp();
    throw error;
  }

  let mongoClient: mongoose.Connection | undefined;
  const gatewayUrls = stack.processes.filter((service) => service.app === 'gateway').map((service) => service.url);
  const api = new ApiClient(gatewayUrl, conformance, gatewayUrls.filter((url) => url !== gatewayUrl));
  return {
    stack,
    gatewayUrl,
    gatewayUrls,
    api,
    conformance,
    logs,
    mongoProxy,
    redisProxy,
    clientFor: (url) => new ApiClient(url, conformance),
    eventually,
    async countListEntries(category, userId) {
      // The shared store, not the relay: this read must work while a test has cut this stack's database.
      mongoClient ??= await mongoose.createConnection(testMongoUrl()).asPromise();
      const db = mongoClient.useDb(stack.mongoDbNames.catalog[category] ?? '', { useCache: true });
      return db.collection(LIST_ENTRIES_COLLECTION).countDocuments({ user_id: userId });
    },
    async stop() {
      // Stores back first, so the services can deregister and shut down cleanly.
      try {
        await Promise.all([mongoProxy?.restore(), redisProxy?.restore()]);
        await stack.stop();
      } finally {
        await mongoClient?.close();
        await cleanUp();
      }
      console.log(recordConformance(options.name, conformance));
      // A failure an `eventually` or a catch swallowed still fails the file.
      if (conformance.failures.length) throw new Error(conformance.summary());
    },
  };
}

export async function eventually<T>(fn: () => Promise<T>, options: EventuallyOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      // A wrong answer is not a matter of time: never retried.
      if (error instanceof ConformanceError || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
    }
  }
}
