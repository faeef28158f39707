import { endpointRouter } from '@mt/endpoints';
import { createHttpApp, finishHttpApp } from '@mt/http';
import { identityMiddleware } from '@mt/identity';
import type { Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import type { Lifecycle } from '@mt/probes';
import { pingMongo } from '@mt/stores';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { scrobbleEndpoints, type ScrobbleServices } from './scrobble.endpoints';

export interface ScrobbleAppDeps {
  config: { INTERNAL_SECRET: string; SERVICE_VERSION: string };
  logger: Logger;
  lifecycle: Lifecycle;
  metrics: Metrics;
  connection: Connection;
  services: ScrobbleServices;
}

/** Probes at the root, the endpoints at /api/v1/scrobble. */
export function createApp({ config, logger, lifecycle, metrics, connection, services }: ScrobbleAppDeps): Express {
  const app = createHttpApp({
    logger,
    metrics,
    probes: { service: 'scrobble-service', version: config.SERVICE_VERSION, lifecycle, pingDatabase: () => pingMongo(connection) },
  });
  // Identity only from the gateway's signed headers; the receiver needs none (its secret authenticates).
  app.use(identityMiddleware(config.INTERNAL_SECRET));
  app.use(endpointRouter([scrobbleEndpoints(services)]));
  return finishHttpApp(app, logger);
}
