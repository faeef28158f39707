// Jest global setup: provide MongoDB and Redis once per test run and hand their URLs to the workers
// through the environment. Relative imports: global setup runs outside the module mapper.
// eslint-disable-next-line @nx/enforce-module-boundaries -- global setup runs outside Jest's module mapper
import { provideMongo, provideRedis, type ProvidedStore } from '../../stack/src/embedded-stores';
import { startRedisCluster } from '../../stack/src/redis-cluster';

declare global {
  var __MT_TEST_STORES__: ProvidedStore[] | undefined;
}

export default async function globalSetup(): Promise<void> {
  if (globalThis.__MT_TEST_STORES__) return;
  // MT_TEST_REDIS_CLUSTER=1 (npm run test:cluster): the suites run against a local 3-master, 3-replica cluster.
  const [mongo, redis] = await Promise.all([provideMongo(), process.env['MT_TEST_REDIS_CLUSTER'] === '1' ? startRedisCluster() : provideRedis()]);
  process.env['MONGO_URL'] = mongo.url;
  process.env['REDIS_URL'] = redis.url;
  globalThis.__MT_TEST_STORES__ = [mongo, redis];
}
