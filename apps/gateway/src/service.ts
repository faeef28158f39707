import { RegistryRouteTable } from '@mt/registry-client';
import { defineService } from '@mt/runtime';
import path from 'node:path';
import { createApp } from './app';
import { loadGatewayConfig } from './config';
import { UpstreamAgents } from './proxy/agents';

/** What this service is, for its own process (main.ts) and for a host of several services (apps/all-in-one). */
export const gatewayService = defineService({
  name: 'gateway',
  loadConfig: loadGatewayConfig,
  // Redis is the gateway's own store (PAT cache, cut-offs, rate limits): not ready without it.
  stores: (config) => ({ redis: { url: config.REDIS_URL, waitAtStartup: true } }),
  create: ({ config, logger, lifecycle, metrics, redis }) => {
    const routeTable = new RegistryRouteTable({
      registryUrl: config.REGISTRY_URL,
      internalSecret: config.INTERNAL_SECRET,
      redisUrl: config.REDIS_URL,
      redisKeyPrefix: config.REDIS_KEY_PREFIX,
      logger,
    });
    const agents = new UpstreamAgents();
    // `npm run build` writes the web app to dist/apps/web, beside this bundle's dist/apps/gateway.
    const webDir = config.WEB_DIR ?? path.resolve(__dirname, '..', 'web');
    return {
      app: createApp({ config, logger, lifecycle, redis, metrics, routeTable, agents, webDir }),
      // Ready once the first route-table load was attempted (a registry outage keeps an empty table;
      // categories appear as soon as the registry answers).
      startup: () => routeTable.start(),
      shutdown: async () => {
        await routeTable.stop();
        agents.destroy();
      },
    };
  },
});
