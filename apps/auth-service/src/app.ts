import { generateFragment } from '@mt/contracts';
import { createHttpApp, finishHttpApp } from '@mt/http';
import { identityMiddleware } from '@mt/identity';
import type { Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import type { Lifecycle } from '@mt/probes';
import { pingMongo } from '@mt/stores';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import type { AuthModule } from './auth-module';
import type { AuthConfig } from './config';
import { internalRouter } from './internal/internal.routes';
import { loginRouter } from './login/login.routes';
import { buildOpenApiRegistry } from './openapi';
import { tokensRouter } from './tokens/tokens.routes';
import { usersRouter } from './users/users.routes';

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
  app.use(usersRouter(auth.users, auth.account));
  app.use(loginRouter(auth.login));
  app.use(tokensRouter(auth.tokens));
  app.use(
    internalRouter({
      secret: config.INTERNAL_SECRET,
      jwks: auth.keys.jwks,
      openapi: generateFragment(buildOpenApiRegistry()),
      introspection: auth.introspection,
      users: auth.repositories.users,
    }),
  );
  return finishHttpApp(app, logger);
}
