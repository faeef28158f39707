import { redisKeys, USER_DELETED } from '@mt/contracts';
import { registryClientFromConfig, serviceRegistration } from '@mt/registry-client';
import { defineService } from '@mt/runtime';
import { closeRedis, createRedis, retryUntilDone, UserEventsConsumer } from '@mt/stores';
import { providerSettings } from '@mt/providers';
import { createApp } from '../http/app';
import { categoryRecord, getCategory } from '../domain/categories';
import { createCatalogModule } from './catalog-module';
import { loadCatalogConfig } from './config';
import { categoryEndpoints } from '../http/category.endpoints';

const SERVICE = 'catalog-service';

/**
 * The catalog service for the category CATEGORY names: its stores, wiring, start-up and shutdown; run as its
 * own process (main.ts) or hosted with the others (apps/all-in-one).
 */
export const catalogService = defineService({
  name: SERVICE,
  loadConfig: loadCatalogConfig,
  instance: (config) => ({ id: config.CATEGORY, logFields: { category: config.CATEGORY } }),
  stores: (config) => ({ mongo: { url: config.MONGO_URL, dbName: config.MONGO_DB_NAME } }),
  create: ({ config, logger, lifecycle, metrics, mongo }) => {
    const category = getCategory(config.CATEGORY);
    const providersRedis = createRedis({ url: config.REDIS_URL, logger, name: `${SERVICE}-${category.id}-providers` });
    const module = createCatalogModule({
      category,
      connection: mongo,
      logger,
      cursorSecret: config.INTERNAL_SECRET,
      storeProfile: config.STORE_PROFILE,
      imports: {
        redisUrl: config.REDIS_URL,
        keyPrefix: config.REDIS_KEY_PREFIX,
        concurrency: config.IMPORT_CONCURRENCY,
        lockMs: config.IMPORT_LOCK_MS,
      },
      importUploadsAtOnce: config.IMPORT_UPLOADS_AT_ONCE,
      providers: {
        settings: providerSettings(config),
        redis: providersRedis,
        redisKeyPrefix: config.REDIS_KEY_PREFIX,
        searchLimits: { searches: config.PROVIDER_SEARCHES_PER_MINUTE, windowSeconds: 60 },
      },
    });
    const consumer = new UserEventsConsumer({
      redis: createRedis({
        url: config.REDIS_URL,
        logger,
        name: `${SERVICE}-${category.id}-events`,
        blocking: true,
      }),
      stream: redisKeys(config.REDIS_KEY_PREFIX).userEvents(),
      deletedEventType: USER_DELETED,
      group: `catalog-${category.id}`,
      consumer: config.INSTANCE_ID,
      eraseUser: (userId) => module.userDeletion.eraseUser(userId),
      logger,
      metrics,
      claimIdleMs: config.EVENTS_CLAIM_IDLE_MS,
      blockMs: config.EVENTS_BLOCK_MS,
    });
    // Its routes, scopes and documentation, derived from the same declarations that serve them.
    const registration = serviceRegistration({
      service: category.id,
      category: categoryRecord(category, module.categoryProviders.ids()),
      baseUrl: config.ADVERTISED_URL,
      version: config.SERVICE_VERSION,
      groups: [categoryEndpoints(module)],
    });
    return {
      app: createApp({ config, logger, lifecycle, metrics, module }),
      startup: async (signal) => {
        // Indexes and the entry counter: retried while MongoDB comes and goes during start-up.
        await retryUntilDone(() => module.prepare(), signal, (error, delay) => logger.warn({ err: error, retry_in_ms: delay }, 'preparing the database failed; retrying'));
        if (!signal.aborted) consumer.start();
        if (!signal.aborted) module.startShowRefresh();
        if (!signal.aborted) {
          // Jobs already queued stay in Redis; a failure here only delays the re-queueing of lost ones.
          await module
            .startImports()
            .catch((error: unknown) =>
              logger.warn({ reason: (error as Error).message }, 'import jobs not re-queued at start-up'),
            );
        }
      },
      // Registered once everything above is ready: the gateway routes here from then on.
      registration: registryClientFromConfig(config, () => registration, logger),
      shutdown: async () => {
        await consumer.stop();
        await module.stopImports();
        await module.stopShowRefresh();
        module.stop();
        await closeRedis(consumer.redis);
        await closeRedis(providersRedis);
      },
    };
  },
});
