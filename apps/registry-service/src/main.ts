import { ConfigError } from '@mt/config';
import { runServiceProcess } from '@mt/http';
import { createLogger } from '@mt/logging';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { closeRedis, createRedis, waitForRedis } from '@mt/stores';
import { createApp, createInstances } from './app';
import { loadRegistryConfig } from './config';
import { createExpirySweeper } from './instances/expiry-sweeper';

async function main(): Promise<void> {
  const config = loadRegistryConfig();
  const logger = createLogger({ service: 'registry-service', level: config.LOG_LEVEL });
  const lifecycle = createLifecycle();
  const redis = createRedis({ url: config.REDIS_URL, logger, name: 'registry' });
  const app = createApp({ config, logger, lifecycle, redis, metrics: createMetrics('registry-service') });
  const instances = createInstances({ config, logger, redis });
  const sweeper = createExpirySweeper({ sweep: () => instances.sweepExpired(), intervalMs: config.SWEEP_INTERVAL_MS, logger });
  await runServiceProcess({
    name: 'registry-service',
    app,
    logger,
    lifecycle,
    port: config.PORT,
    host: config.HOST,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    startup: async (signal) => {
      await waitForRedis(redis, signal);
      if (!signal.aborted) sweeper.start();
    },
    shutdown: async () => {
      await sweeper.stop();
      await closeRedis(redis);
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `start-up failed: ${String(error)}`}\n`);
  process.exit(1);
});
