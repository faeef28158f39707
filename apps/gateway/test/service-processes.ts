// The other services some gateway suites run against, as real processes of their built apps
// (dist/apps/<app>/main.js, started through @mt/stack on free ports), each in its own Redis namespace and
// database: the gateway's tests import no other app's code. Build them first (the gateway's
// `test:integration` target depends on their builds).
import { startStack, type AppName, type ServiceProcess } from '@mt/stack';
import { deleteRedisPrefix, dropTestDatabase, testDbName, testMongoUrl, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { generateKeyPairSync } from 'node:crypto';

export interface ServiceUnderTest {
  /** `http://127.0.0.1:<port>` */
  url: string;
  process: ServiceProcess;
  /** The Redis namespace (REDIS_KEY_PREFIX) the process uses. */
  prefix: string;
  /** Stops the process (SIGTERM), then removes the database and Redis namespace it was given here. Safe to call twice. */
  stop(): Promise<void>;
}

interface StartOptions {
  app: AppName;
  prefix: string;
  /** The namespace was made for this process alone: removed when it stops. */
  ownPrefix: boolean;
  secret: string;
  dbName?: string;
  env: NodeJS.ProcessEnv;
}

const READY_TIMEOUT_MS = 60_000;

async function startService({ app, prefix, ownPrefix, secret, dbName, env }: StartOptions): Promise<ServiceUnderTest> {
  const stack = await startStack({
    apps: [app],
    ports: 'free',
    mongoUrl: testMongoUrl(),
    redisUrl: testRedisUrl(),
    redisKeyPrefix: prefix,
    ...(dbName ? { mongoDbNames: { auth: dbName } } : {}),
    internalSecret: secret,
    appEnv: { [app]: env },
    // The process keeps its last lines (recentOutput): a failed start names them; nothing is printed otherwise.
    onLog: () => undefined,
    waitForRoutes: false,
  });
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await stack.stop();
      if (ownPrefix) await deleteRedisPrefix(prefix);
      if (dbName) await dropTestDatabase(dbName);
    })());
  try {
    await stack.waitReady(READY_TIMEOUT_MS);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  const service = stack.process(app);
  return { url: service.url, process: service, prefix, stop };
}

export interface RegistryProcessOptions {
  /**
   * The Redis namespace the gateway's route table follows (the registry publishes its changes there); the
   * caller's to remove.
   */
  prefix: string;
  secret: string;
  ttlMs?: number;
  sweepIntervalMs?: number;
}

/** The real registry-service: registrations, heartbeats, and its own expiry sweep of silent instances. */
export function startRegistryProcess(options: RegistryProcessOptions): Promise<ServiceUnderTest> {
  return startService({
    app: 'registry-service',
    prefix: options.prefix,
    ownPrefix: false,
    secret: options.secret,
    env: {
      ...(options.ttlMs === undefined ? {} : { INSTANCE_TTL_MS: String(options.ttlMs) }),
      ...(options.sweepIntervalMs === undefined ? {} : { SWEEP_INTERVAL_MS: String(options.sweepIntervalMs) }),
    },
  });
}

/**
 * The real auth-service on a database and Redis namespace of its own, signing with a key generated for the
 * run. It registers with no registry (none is started): the caller routes to it directly.
 */
export function startAuthProcess(options: { secret: string }): Promise<ServiceUnderTest> {
  const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return startService({
    app: 'auth-service',
    prefix: testRedisPrefix('gw-auth'),
    ownPrefix: true,
    dbName: testDbName('gw_auth'),
    secret: options.secret,
    env: { JWT_PRIVATE_KEY: privateKey },
  });
}
