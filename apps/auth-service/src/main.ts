import { ConfigError } from '@mt/config';
import { runServiceProcess } from '@mt/http';
import { createLogger } from '@mt/logging';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { closeMongo, closeRedis, createMongoConnection, createRedis, openMongo, sleep } from '@mt/stores';
import { createApp } from './app';
import { createAuthModule } from './auth-module';
import { loadAuthConfig } from './config';
import { JwtKeyError, loadJwtKeys } from './jwt/key-store';
import { lowerHelperThreadPriority } from './shared/thread-priority';

/** Start-up waits this long for Redis, then goes on without it (MongoDB is the auth service's own store). */
const REDIS_STARTUP_WAIT_MS = 5000;

async function main(): Promise<void> {
  const config = loadAuthConfig();
  const logger = createLogger({ service: 'auth-service', level: config.LOG_LEVEL });
  const keys = loadJwtKeys(config, logger);
  const lifecycle = createLifecycle();
  const connection = createMongoConnection();
  const redis = createRedis({ url: config.REDIS_URL, logger, name: 'auth' });
  const auth = createAuthModule({ config, logger, connection, redis, keys });
  const app = createApp({ config, logger, lifecycle, metrics: createMetrics('auth-service'), connection, auth });

  await runServiceProcess({
    name: 'auth-service',
    app,
    logger,
    lifecycle,
    port: config.PORT,
    host: config.HOST,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    startup: async (signal) => {
      await openMongo(connection, { url: config.MONGO_URL, dbName: config.MONGO_DB_NAME, logger, appName: 'auth-service' }, signal);
      if (signal.aborted) return;
      await auth.prepare();
      // The warm-up hash has started libuv's thread pool: from now on hashing yields to the event loop.
      lowerHelperThreadPriority(logger);
      // Redis is not needed to serve (lockout fails open, changes wait in the outbox), but the first
      // re-mirror of cut-offs is better done before traffic arrives.
      for (const deadline = Date.now() + REDIS_STARTUP_WAIT_MS; redis.status !== 'ready' && Date.now() < deadline && !signal.aborted; ) {
        await sleep(100, signal);
      }
      if (redis.status !== 'ready') logger.warn('redis not reachable yet: starting anyway; cut-offs are re-mirrored when it connects');
      await auth.relay.start();
    },
    shutdown: async () => {
      await auth.relay.stop();
      await Promise.all([closeMongo(connection), closeRedis(redis)]);
    },
  });
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof JwtKeyError;
  process.stderr.write(`${known ? (error as Error).message : `start-up failed: ${String(error)}`}\n`);
  process.exit(1);
});
