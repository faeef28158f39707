import { redisKeys } from '@mt/contracts';
import { endpointRouter, routeManifest } from '@mt/endpoints';
import { createHttpApp, finishHttpApp, inSequence } from '@mt/http';
import type { Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import type { Lifecycle } from '@mt/probes';
import type { RouteTable } from '@mt/registry-client';
import { pingRedis, type Redis } from '@mt/stores';
import type { Express } from 'express';
import { aggregateEndpoints, callerIdentityMiddleware } from './aggregate';
import { authenticateMiddleware, enforceAccess } from './authn/authenticate.middleware';
import { Authenticator } from './authn/authenticator';
import { AuthServiceClient } from './authn/auth-service.client';
import { JwksClient } from './authn/jwks-client';
import { JwtCutoffRepository } from './authn/jwt-cutoff.repository';
import { JwtVerifier } from './authn/jwt-verifier';
import { PatCacheRepository } from './authn/pat-cache.repository';
import { PatVerifier } from './authn/pat-verifier';
import { RedisRecovery } from './authn/redis-recovery';
import type { GatewayConfig } from './config';
import { discoveryEndpoints, gatewayFragment, OpenApiDocument } from './discovery';
import { upstreamHealth } from './health/upstream-health';
import { imagesFromConfig } from './images';
import { BodyBudget } from './idempotency/body-budget';
import { IdempotencyRepository } from './idempotency/idempotency.repository';
import { IDEMPOTENCY_CLAIM_LEASE_MS, idempotencyMiddleware } from './idempotency/idempotency.middleware';
import type { UpstreamAgents } from './proxy/agents';
import { createUpstreamProxy } from './proxy/upstream-proxy';
import { RateLimitRepository } from './rate-limit/rate-limit.repository';
import { rateLimitMiddleware } from './rate-limit/rate-limit.middleware';
import { RateLimiter } from './rate-limit/rate-limiter';
import { resolveRouteMiddleware, RouteResolver } from './routing/resolve-route.middleware';
import { bodyLimit } from './security/body-limit.middleware';
import { corsMiddleware } from './security/cors';
import { securityHeaders } from './security/security-headers';
import { webApp } from './web/web-app';
import { gatewayState } from './request-state';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  lifecycle: Lifecycle;
  /** The gateway's database: PAT cache, JWT cut-offs, rate limits. */
  redis: Redis;
  metrics: Metrics;
  routeTable: RouteTable;
  agents: UpstreamAgents;
  /** Tuning for tests; production uses the defaults. */
  jwks?: { minRefetchIntervalMs?: number };
  /** The built web app served at `/` (main.ts: WEB_DIR, else dist/apps/web beside the gateway's bundle). */
  webDir?: string;
}

/**
 * The public face, top to bottom: security headers and CORS (also on the probes), probes, the web app's
 * pages and assets (GET/HEAD outside /api), the providers' images (/api/v1/images/…), then for API
 * requests: route decision (from the manifests in the route table) → authentication → rate limit → access
 * (404/405/401/503/403) → body limit → Idempotency-Key (POST) → the gateway's own endpoints or the upstream
 * proxy. No body parser: bodies stream to the services intact (a POST with an Idempotency-Key is read first,
 * to fingerprint it, then sent as read).
 */
export function createApp(deps: GatewayDeps): Express {
  const { config, logger, lifecycle, redis, metrics, routeTable, agents } = deps;
  const keys = redisKeys(config.REDIS_KEY_PREFIX);

  const authService = new AuthServiceClient({
    authUrl: config.AUTH_URL,
    internalSecret: config.INTERNAL_SECRET,
    logger,
  });
  const recovery = new RedisRecovery(redis);
  const authenticator = new Authenticator({
    jwt: new JwtVerifier({
      jwks: new JwksClient({ fetchJwks: () => authService.fetchJwks(), logger, ...deps.jwks }),
      cutoffs: new JwtCutoffRepository(redis, { keys, recovery }),
      authService,
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      logger,
    }),
    pat: new PatVerifier({ cache: new PatCacheRepository(redis, { keys, recovery }), authService, metrics, logger }),
  });
  const rateLimiter =
    config.RATE_LIMIT_PER_MINUTE > 0
      ? new RateLimiter({ repository: new RateLimitRepository(redis, keys), limitPerMinute: config.RATE_LIMIT_PER_MINUTE })
      : undefined;

  // The gateway's own endpoints are declared like any service's; their manifest joins the routing table.
  const openApi = new OpenApiDocument({ routeTable, logger, gatewayFragment: () => gatewayFragment(gatewayGroups) });
  const discovery = discoveryEndpoints({ routeTable, openApi });
  const aggregates = aggregateEndpoints({ routeTable, internalSecret: config.INTERNAL_SECRET, categoryTimeoutMs: config.AGGREGATE_TIMEOUT_MS });
  const gatewayGroups = [discovery, aggregates];
  const resolver = new RouteResolver({ routeTable, gatewayRoutes: routeManifest(gatewayGroups).routes, logger });

  const app = createHttpApp({
    logger,
    metrics,
    // The one INFO line per client request of the stack: the services log theirs at debug.
    accessLog: true,
    before: [securityHeaders(), corsMiddleware(config.CORS_ORIGINS)],
    probes: {
      service: 'gateway',
      version: config.SERVICE_VERSION,
      lifecycle,
      pingDatabase: () => pingRedis(redis),
      upstreams: upstreamHealth({ routeTable, authUrl: config.AUTH_URL, registryUrl: config.REGISTRY_URL }),
    },
  });
  app.set('trust proxy', config.TRUST_PROXY);

  const gatewayEndpoints = inSequence([callerIdentityMiddleware(config.INTERNAL_SECRET), endpointRouter(gatewayGroups)]);
  // Every API request takes these steps in this order: one middleware instead of one express layer each
  // (the hot path of every proxied request, issue 21).
  app.use(
    inSequence([
      // Before the API's route decision: pages and assets are neither rate-limited nor authenticated.
      webApp({ dir: deps.webDir ?? config.WEB_DIR }),
      // Public images from the providers' hosts, answered before the API's route decision like the web app.
      imagesFromConfig(config),
      resolveRouteMiddleware(resolver, routeTable),
      authenticateMiddleware(authenticator, logger),
      rateLimitMiddleware(rateLimiter, logger),
      enforceAccess,
      bodyLimit,
      idempotencyMiddleware({
        repository: new IdempotencyRepository(redis, {
          keys,
          bounds: { maxAnswers: config.IDEMPOTENCY_MAX_ANSWERS, maxBytes: config.IDEMPOTENCY_MAX_BYTES },
        }),
        bodies: new BodyBudget(config.IDEMPOTENCY_BUFFER_BYTES, metrics),
        inFlightTtlMs: IDEMPOTENCY_CLAIM_LEASE_MS,
        logger,
      }),
      // The gateway's own endpoints: only requests routed to them walk their router.
      (req, res, next) => {
        const decision = gatewayState(res).decision;
        if (decision?.kind === 'route' && decision.upstream.kind === 'gateway') return gatewayEndpoints(req, res, next);
        next();
      },
      createUpstreamProxy({
        routeTable,
        internalSecret: config.INTERNAL_SECRET,
        timeoutMs: config.PROXY_TIMEOUT_MS,
        agents,
        metrics,
        logger,
      }),
    ]),
  );
  return finishHttpApp(app, logger);
}
