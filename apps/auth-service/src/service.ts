import { registryClientFromConfig, serviceRegistration } from '@mt/registry-client';
import { defineService } from '@mt/runtime';
import { waitForRedis } from '@mt/stores';
import { createApp } from './app';
import { AUTH_SERVICE, authEndpoints } from './auth.endpoints';
import { createAuthModule } from './auth-module';
import { loadAuthConfig } from './config';
import { loadJwtKeys } from './jwt/key-store';
import { lowerHelperThreadPriority } from './shared/thread-priority';

/** Start-up waits this long for Redis, then goes on without it (MongoDB is the auth service's own store). */
const REDIS_STARTUP_WAIT_MS = 5000;

/** What this service is, for its own process (main.ts) and for a host of several services (apps/all-in-one). */
export const authService = defineService({
  name: 'auth-service',
  loadConfig: loadAuthConfig,
  stores: (config) => ({
    mongo: { url: config.MONGO_URL, dbName: config.MONGO_DB_NAME },
    redis: { url: config.REDIS_URL, waitAtStartup: false },
  }),
  create: ({ config, logger, lifecycle, metrics, mongo, redis }) => {
    const keys = loadJwtKeys(config, logger);
    const auth = createAuthModule({ config, logger, connection: mongo, redis, keys });
    // The gateway learns the public routes from this registration, as it does a catalog's.
    const registration = serviceRegistration({ service: AUTH_SERVICE, baseUrl: config.ADVERTISED_URL, version: config.SERVICE_VERSION, groups: [authEndpoints(auth)] });
    return {
      app: createApp({ config, logger, lifecycle, metrics, connection: mongo, auth }),
      startup: async (signal) => {
        await auth.prepare();
        // The warm-up hash has started libuv's thread pool: from now on hashing yields to the event loop.
        lowerHelperThreadPriority(logger);
        // Redis is not needed to serve (lockout fails open, changes wait in the outbox), but the first
        // re-mirror of cut-offs is better done before traffic arrives. An unreachable one is named (address,
        // reason) while we wait.
        await waitForRedis(redis, AbortSignal.any([signal, AbortSignal.timeout(REDIS_STARTUP_WAIT_MS)]));
        if (redis.status !== 'ready') logger.warn('redis not reachable yet: starting anyway; cut-offs are re-mirrored when it connects');
        await auth.relay.start();
      },
      registration: registryClientFromConfig(config, () => registration, logger),
      // Its own work (introspection and JWKS for the gateway) does not wait for the registry.
      registerInBackground: true,
      shutdown: () => auth.relay.stop(),
    };
  },
});
