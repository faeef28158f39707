// Starts a real registry-service (createApp + expiry sweeper) on a free port over the test Redis, for the
// integration tests of the registry, its clients and the gateway's discovery router.
import type { Logger } from '@mt/logging';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { closeRedis, createRedis, waitForRedis } from '@mt/stores';
import { silentLogger, testRedisUrl } from '@mt/testing';
import type { Express } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, createInstances } from '../src/app';
import { loadRegistryConfig } from '../src/config';
import { ExpirySweeper } from '../src/instances/expiry-sweeper';

export const TEST_SECRET = 's'.repeat(40);

export interface RegistryHarnessOptions {
  prefix: string;
  ttlMs?: number;
  sweepIntervalMs?: number;
  /** Listen on this port (to restart a stopped registry at the same URL). */
  port?: number;
  logger?: Logger;
  /** The internal secret (default TEST_SECRET). */
  secret?: string;
}

export interface RunningRegistry {
  app: Express;
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startRegistry(options: RegistryHarnessOptions): Promise<RunningRegistry> {
  const logger = options.logger ?? silentLogger();
  const config = loadRegistryConfig({
    INTERNAL_SECRET: options.secret ?? TEST_SECRET,
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: options.prefix,
    INSTANCE_TTL_MS: String(options.ttlMs ?? 30_000),
    SWEEP_INTERVAL_MS: String(options.sweepIntervalMs ?? 2000),
  });
  const redis = createRedis({ url: config.REDIS_URL, logger, name: 'registry-test' });
  await waitForRedis(redis);
  const lifecycle = createLifecycle();
  lifecycle.started = true;
  const instances = createInstances({ config, logger, redis });
  const app = createApp({ config, logger, lifecycle, redis, metrics: createMetrics('registry-test'), instances });
  const sweeper = new ExpirySweeper({ sweep: () => instances.sweepExpired(), intervalMs: config.SWEEP_INTERVAL_MS, logger });
  // As main.ts does at start-up.
  await instances.grantAmnesty();
  sweeper.start();
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    app,
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await sweeper.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeRedis(redis);
    },
  };
}
