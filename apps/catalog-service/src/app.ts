import { createHttpApp, finishHttpApp } from '@mt/http';
import { identityMiddleware } from '@mt/identity';
import type { Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import type { Lifecycle } from '@mt/probes';
import { pingMongo } from '@mt/stores';
import { Router, type Express } from 'express';
import type { CatalogModule } from './catalog-module';
import { categoryBasePath } from './categories/categories';
import { catalogRoutes } from './catalog/catalog.routes';
import { listRoutes } from './lists/list.routes';

export interface CatalogAppDeps {
  config: { INTERNAL_SECRET: string; SERVICE_VERSION: string };
  logger: Logger;
  lifecycle: Lifecycle;
  metrics: Metrics;
  module: CatalogModule;
}

/** The category's HTTP app: probes at the root, public routes at /api/v1/<category>. */
export function createApp({ config, logger, lifecycle, metrics, module }: CatalogAppDeps): Express {
  const { category } = module;
  const app = createHttpApp({
    logger,
    metrics,
    probes: {
      service: `catalog-service:${category.id}`,
      version: config.SERVICE_VERSION,
      lifecycle,
      pingDatabase: () => pingMongo(module.connection),
    },
  });

  const router = Router();
  // Identity only from the gateway's signed headers; a forged or unsigned one is a 401.
  router.use(identityMiddleware(config.INTERNAL_SECRET));
  // The literal paths (list, bulk-*) before `/:id`.
  listRoutes(router, category, module.lists);
  catalogRoutes(router, category, module.catalog);
  app.use(categoryBasePath(category), router);

  return finishHttpApp(app, logger);
}
