import { ConfigError } from '@mt/config';
import { categoryRecord, getCategory } from './categories/categories';
import { redisKeys } from '@mt/contracts';
import { runServiceProcess } from '@mt/http';
import { createLogger } from '@mt/logging';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { createRegistryClient } from '@mt/registry-client';
import { backoffDelay, closeMongo, closeRedis, createMongoConnection, createRedis, openMongo, sleep } from '@mt/stores';
import { createApp } from './app';
import { createCatalogModule } from './catalog-module';
import { loadCatalogConfig } from './config';
import { UserEventsConsumer } from './events/user-events.consumer';
import { buildCategoryOpenApi } from './openapi';

const SERVICE = 'catalog-service';

async function main(): Promise<void> {
  const config = loadCatalogConfig();
  const category = getCategory(config.CATEGORY);
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL }).child({ category: category.id });
  const lifecycle = createLifecycle();
  const metrics = createMetrics(SERVICE);
  const connection = createMongoConnection();
  const module = createCatalogModule({ category, connection, logger });
  const consumer = new UserEventsConsumer({
    redis: createRedis({ url: config.REDIS_URL, logger, name: `${SERVICE}-${category.id}-events`, blocking: true }),
    stream: redisKeys(config.REDIS_KEY_PREFIX).userEvents(),
    group: `catalog-${category.id}`,
    consumer: config.INSTANCE_ID,
    eraseUser: (userId) => module.userDeletion.eraseUser(userId),
    logger,
    metrics,
    claimIdleMs: config.EVENTS_CLAIM_IDLE_MS,
    blockMs: config.EVENTS_BLOCK_MS,
  });
  const registry = createRegistryClient({
    registryUrl: config.REGISTRY_URL,
    internalSecret: config.INTERNAL_SECRET,
    instanceId: config.INSTANCE_ID,
    registration: () => ({
      category: categoryRecord(category),
      base_url: config.ADVERTISED_URL,
      version: config.SERVICE_VERSION,
      openapi: buildCategoryOpenApi(category),
    }),
    logger,
    heartbeatIntervalMs: config.REGISTRY_HEARTBEAT_MS,
  });
  const app = createApp({ config, logger, lifecycle, metrics, module });

  await runServiceProcess({
    name: `${SERVICE} (${category.id})`,
    app,
    logger,
    lifecycle,
    port: config.PORT,
    host: config.HOST,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    startup: async (signal) => {
      await openMongo(connection, { url: config.MONGO_URL, dbName: config.MONGO_DB_NAME, logger, appName: `${SERVICE}-${category.id}` }, signal);
      // Indexes and the entry counter: retried while MongoDB comes and goes during start-up.
      for (let attempt = 1; !signal.aborted; attempt++) {
        try {
          await module.prepare();
          break;
        } catch (error) {
          const delay = backoffDelay(attempt, 250, 5000);
          logger.warn({ err: { name: (error as Error).name, message: (error as Error).message }, retry_in_ms: delay }, 'preparing the database failed; retrying');
          await sleep(delay, signal);
        }
      }
      if (signal.aborted) return;
      consumer.start();
      // Registered last: the gateway routes here only once everything above is ready.
      registry.start();
      await registry.registered();
    },
    // Deregister first, so the gateway stops routing here while in-flight requests finish.
    beforeDrain: () => registry.stop(),
    shutdown: async () => {
      await registry.stop();
      await consumer.stop();
      module.stop();
      await Promise.all([closeMongo(connection), closeRedis(consumer.redis)]);
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `start-up failed: ${String(error)}`}\n`);
  process.exit(1);
});
