import { endpointRouter } from '@mt/endpoints';
import { createHttpApp, finishHttpApp } from '@mt/http';
import { identityMiddleware } from '@mt/identity';
import type { Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import type { Lifecycle } from '@mt/probes';
import { pingMongo } from '@mt/stores';
import type { Express } from 'express';
import { categoryEndpoints, type CategoryServices } from './category.endpoints';
import { internalEndpoints } from './internal.endpoints';

export interface CatalogAppDeps {
  config: { INTERNAL_SECRET: string; SERVICE_VERSION: string };
  logger: Logger;
  lifecycle: Lifecycle;
  metrics: Metrics;
  /** The category's use cases, and the connection the readiness probe pings. */
  module: CategoryServices & { connection: Parameters<typeof pingMongo>[0] };
}

/** The category's HTTP app: probes at the root, its endpoints at /api/v1/<category>. */
export function createApp({ config, logger, lifecycle, metrics, module }: CatalogAppDeps): Express {
  const app = createHttpApp({
    logger,
    metrics,
    probes: {
      service: `catalog-service:${module.category.id}`,
      version: config.SERVICE_VERSION,
      lifecycle,
      pingDatabase: () => pingMongo(module.connection),
    },
  });
  // Identity only from the gateway's signed headers; a forged or unsigned one is a 401.
  app.use(identityMiddleware(config.INTERNAL_SECRET));
  app.use(endpointRouter([categoryEndpoints(module), internalEndpoints(module.category, module.plays, module.episodes, module.providerMatch)], { internalSecret: config.INTERNAL_SECRET }));
  return finishHttpApp(app, logger);
}
