import { endpointRouter } from '@mt/endpoints';
import { createHttpApp, finishHttpApp } from '@mt/http';
import { identityMiddleware } from '@mt/identity';
import type { Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import type { Lifecycle } from '@mt/probes';
import { pingMongo } from '@mt/stores';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { authEndpoints } from './auth.endpoints';
import type { AuthModule } from './auth-module';
import type { AuthConfig } from './config';
import { internalEndpoints } from './internal/internal.endpoints';

export interface AuthAppDeps {
  config: AuthConfig;
  logger: Logger;
  lifecycle: Lifecycle;
  metrics: Metrics;
  connection: Connection;
  auth: AuthModule;
}

export function createApp({ config, logger, lifecycle, metrics, connection, auth }: AuthAppDeps): Express {
  const app = createHttpApp({
    logger,
    metrics,
    // The auth service's own database is MongoDB: that is what readiness checks.
    probes: { service: 'auth-service', version: config.SERVICE_VERSION, lifecycle, pingDatabase: () => pingMongo(connection) },
  });
  // After the probes (they ignore credentials): only gateway-signed identity headers are trusted.
  app.use(identityMiddleware(config.INTERNAL_SECRET));
  app.use(
    endpointRouter([authEndpoints(auth), internalEndpoints({ keys: auth.keys, introspection: auth.introspection })], {
      internalSecret: config.INTERNAL_SECRET,
    }),
  );
  return finishHttpApp(app, logger);
}
