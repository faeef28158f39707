import { getCategory } from '../src/domain/categories';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { closeMongo, closeRedis, createMongoConnection, createRedis, openMongo } from '@mt/stores';
import { providerSettings } from '@mt/providers';
import { captureLogger, deleteRedisPrefix, dropTestDatabase, testDbName, testMongoUrl, testRedisPrefix, testRedisUrl } from '@mt/testing';
import type { Express } from 'express';
import { createApp } from '../src/http/app';
import { createCatalogModule, type CatalogModule, type CatalogModuleOptions } from '../src/composition/catalog-module';
import { loadCatalogConfig, type CatalogConfig } from '../src/composition/config';
import { TEST_SECRET } from './identity-headers';

export interface CatalogHarness {
  app: Express;
  module: CatalogModule;
  config: CatalogConfig;
  dbName: string;
  /** The Redis key prefix of the import queue, when imports run. */
  redisPrefix: string | undefined;
  logLines: () => string[];
  close: (options?: { keepDatabase?: boolean }) => Promise<void>;
}

export interface HarnessOptions {
  category?: string;
  /** Default: STORE_PROFILE of the environment, else `auto` (the test server's plans decide). */
  storeProfile?: CatalogModuleOptions['storeProfile'];
  sortHints?: CatalogModuleOptions['sortHints'];
  now?: () => Date;
  /** Share another harness's database (a second instance of the same category). */
  dbName?: string;
  /**
   * Run import jobs (BullMQ on the test Redis, under its own key prefix, or `redisPrefix` to share another
   * harness's queue); `lockMs` short so a killed worker's job is taken over quickly.
   */
  imports?: { redisPrefix?: string; lockMs?: number; concurrency?: number; /** false: jobs are queued but this instance runs none */ worker?: boolean };
  /** Metadata providers: the variables enabling them (a replay server's `env`), on the test Redis under their own prefix. */
  providers?: { env: Record<string, string>; redisPrefix?: string } & Omit<NonNullable<CatalogModuleOptions['providers']>, 'settings' | 'redis' | 'redisKeyPrefix'>;
}

/** A real catalog app on its own test database, prepared like main.ts does (indexes, counter). */
export async function startCatalogHarness(options: HarnessOptions = {}): Promise<CatalogHarness> {
  const category = getCategory(options.category ?? 'movies');
  const dbName = options.dbName ?? testDbName(`catalog_${category.id}`);
  const config = loadCatalogConfig({ CATEGORY: category.id, INTERNAL_SECRET: TEST_SECRET, MONGO_URL: testMongoUrl(), MONGO_DB_NAME: dbName, STORE_PROFILE: process.env['STORE_PROFILE'] });
  const { logger, lines } = captureLogger('catalog-service');
  const connection = createMongoConnection();
  await openMongo(connection, { url: config.MONGO_URL, dbName, logger });
  const redisPrefix = options.imports ? (options.imports.redisPrefix ?? testRedisPrefix('imports')) : undefined;
  const imports = options.imports && redisPrefix ? { redisUrl: testRedisUrl(), keyPrefix: redisPrefix, concurrency: options.imports.concurrency ?? 2, lockMs: options.imports.lockMs ?? 3000 } : undefined;
  const providersPrefix = options.providers ? (options.providers.redisPrefix ?? testRedisPrefix('providers')) : undefined;
  const providersRedis = options.providers ? createRedis({ url: testRedisUrl(), logger, name: 'catalog-test-providers' }) : undefined;
  const { env: providerEnv, ...providerOptions } = options.providers ?? { env: {} };
  const providers = providersRedis && providersPrefix ? { ...providerOptions, settings: providerSettings(providerEnv), redis: providersRedis, redisKeyPrefix: providersPrefix } : undefined;
  const module = createCatalogModule({ category, connection, logger, cursorSecret: config.INTERNAL_SECRET, storeProfile: options.storeProfile ?? config.STORE_PROFILE, sortHints: options.sortHints, now: options.now, imports, providers });
  await module.prepare();
  if (options.imports?.worker !== false) await module.startImports();
  const lifecycle = createLifecycle();
  lifecycle.started = true;
  const app = createApp({ config, logger, lifecycle, metrics: createMetrics('catalog-test'), module });
  return {
    app,
    module,
    config,
    dbName,
    logLines: lines,
    redisPrefix,
    close: async ({ keepDatabase = false } = {}) => {
      await module.stopImports();
      await module.stopShowRefresh();
      if (providersRedis) await closeRedis(providersRedis);
      if (providersPrefix && !options.providers?.redisPrefix) await deleteRedisPrefix(providersPrefix);
      if (redisPrefix && !options.imports?.redisPrefix) await deleteRedisPrefix(redisPrefix);
      module.stop();
      await closeMongo(connection);
      if (!keepDatabase) await dropTestDatabase(dbName);
    },
  };
}

/** Two instances of one category on one database, each with its own caches; `close` ends both and drops the database. */
export async function startInstancePair(options: Omit<HarnessOptions, 'dbName'> = {}): Promise<{ a: CatalogHarness; b: CatalogHarness; close: () => Promise<void> }> {
  const a = await startCatalogHarness(options);
  const b = await startCatalogHarness({ ...options, dbName: a.dbName });
  return {
    a,
    b,
    close: async () => {
      await b.close({ keepDatabase: true });
      await a.close();
    },
  };
}
