import { runService } from '@mt/runtime';
import { createApp, createInstances } from './app';
import { loadRegistryConfig } from './config';
import { ExpirySweeper } from './instances/expiry-sweeper';

runService({
  name: 'registry-service',
  loadConfig: loadRegistryConfig,
  // Redis is the registry's own store: not started (not ready) without it.
  stores: (config) => ({ redis: { url: config.REDIS_URL, waitAtStartup: true } }),
  create: ({ config, logger, lifecycle, metrics, redis }) => {
    const instances = createInstances({ config, logger, redis });
    const sweeper = new ExpirySweeper({ sweep: () => instances.sweepExpired(), intervalMs: config.SWEEP_INTERVAL_MS, logger });
    return {
      app: createApp({ config, logger, lifecycle, redis, metrics, instances }),
      startup: async () => {
        // Before the first sweep: after an outage, instances must not be judged by heartbeats nobody received.
        await instances.grantAmnesty();
        sweeper.start();
      },
      shutdown: () => sweeper.stop(),
    };
  },
});
