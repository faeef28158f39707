import { redisKeys, USER_DELETED } from '@mt/contracts';
import { RegistryRouteTable, registryClientFromConfig, serviceRegistration } from '@mt/registry-client';
import { defineService } from '@mt/runtime';
import { closeRedis, createRedis, retryUntilDone, UserEventsConsumer } from '@mt/stores';
import { createApp } from '../http/app';
import { SCROBBLE_SERVICE, scrobbleEndpoints } from '../http/scrobble.endpoints';
import { loadScrobbleConfig } from './config';
import { createScrobbleModule } from './scrobble-module';

const SERVICE = 'scrobble-service';

/** The scrobble service: run as its own process (main.ts) or hosted with the others (apps/all-in-one). */
export const scrobbleService = defineService({
  name: SERVICE,
  loadConfig: loadScrobbleConfig,
  stores: (config) => ({
    mongo: { url: config.MONGO_URL, dbName: config.MONGO_DB_NAME },
    // The queue and the rate limit live in Redis, awaited at start-up; once running, a Redis outage only
    // delays events (stored first, queued by the pending sweep), so readiness is MongoDB's.
    redis: { url: config.REDIS_URL, waitAtStartup: true },
  }),
  create: ({ config, logger, lifecycle, metrics, mongo, redis }) => {
    // The catalog instances, found as the gateway finds them.
    const routeTable = new RegistryRouteTable({ registryUrl: config.REGISTRY_URL, internalSecret: config.INTERNAL_SECRET, redisUrl: config.REDIS_URL, redisKeyPrefix: config.REDIS_KEY_PREFIX, logger });
    const module = createScrobbleModule({
      connection: mongo,
      redis,
      logger,
      routeTable,
      internalSecret: config.INTERNAL_SECRET,
      keyPrefix: config.REDIS_KEY_PREFIX,
      publicUrl: config.PUBLIC_URL,
      hookEventsPerMinute: config.HOOK_EVENTS_PER_MINUTE,
      queue: { redisUrl: config.REDIS_URL, concurrency: config.SCROBBLE_CONCURRENCY, lockMs: config.SCROBBLE_LOCK_MS },
      sweep: { intervalMs: config.PENDING_SWEEP_MS, graceMs: Math.min(config.PENDING_SWEEP_MS, 10_000) },
      providerPatienceMs: config.PROVIDER_PATIENCE_MS,
    });
    const consumer = new UserEventsConsumer({
      redis: createRedis({ url: config.REDIS_URL, logger, name: `${SERVICE}-events`, blocking: true }),
      stream: redisKeys(config.REDIS_KEY_PREFIX).userEvents(),
      deletedEventType: USER_DELETED,
      group: 'scrobble',
      consumer: config.INSTANCE_ID,
      eraseUser: (userId) => module.accountDeletion.eraseUser(userId),
      logger,
      metrics,
      claimIdleMs: config.EVENTS_CLAIM_IDLE_MS,
      blockMs: config.EVENTS_BLOCK_MS,
    });
    const services = { hooks: module.hooks, receiver: module.receiver, inbox: module.inbox, publicUrl: module.publicUrl };
    const registration = serviceRegistration({ service: SCROBBLE_SERVICE, baseUrl: config.ADVERTISED_URL, version: config.SERVICE_VERSION, groups: [scrobbleEndpoints(services)] });
    return {
      app: createApp({ config, logger, lifecycle, metrics, connection: mongo, services }),
      startup: async (signal) => {
        await retryUntilDone(() => module.prepare(), signal, (error, delay) => logger.warn({ err: error, retry_in_ms: delay }, 'preparing the database failed; retrying'));
        if (signal.aborted) return;
        await routeTable.start();
        consumer.start();
        module.startWork();
      },
      registration: registryClientFromConfig(config, () => registration, logger),
      shutdown: async () => {
        await consumer.stop();
        await module.stopWork();
        await routeTable.stop();
        await closeRedis(consumer.redis);
      },
    };
  },
});
