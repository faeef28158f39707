import { ConfigError } from '@mt/config';
import { runServiceProcess } from '@mt/http';
import { createLogger } from '@mt/logging';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { createRouteTable } from '@mt/registry-client';
import { closeRedis, createRedis, waitForRedis } from '@mt/stores';
import path from 'node:path';
import { createApp } from './app';
import { loadGatewayConfig } from './config';
import { createUpstreamAgents } from './proxy/agents';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const lifecycle = createLifecycle();
  const redis = createRedis({ url: config.REDIS_URL, logger, name: 'gateway' });
  const routeTable = createRouteTable({
    registryUrl: config.REGISTRY_URL,
    internalSecret: config.INTERNAL_SECRET,
    redisUrl: config.REDIS_URL,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    logger,
  });
  const agents = createUpstreamAgents();
  // `npm run build` writes the web app to dist/apps/web, beside this bundle's dist/apps/gateway.
  const webDir = config.WEB_DIR ?? path.resolve(__dirname, '..', 'web');
  const app = createApp({ config, logger, lifecycle, redis, metrics: createMetrics('gateway'), routeTable, agents, webDir });
  await runServiceProcess({
    name: 'gateway',
    app,
    logger,
    lifecycle,
    port: config.PORT,
    host: config.HOST,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    // Ready once Redis answers and the first route-table load was attempted (a registry outage keeps an
    // empty table; categories appear as soon as the registry answers).
    startup: async (signal) => {
      await waitForRedis(redis, signal);
      await routeTable.start();
    },
    shutdown: async () => {
      await routeTable.stop();
      await closeRedis(redis);
      agents.destroy();
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `start-up failed: ${String(error)}`}\n`);
  process.exit(1);
});
