import { errorMiddleware, errors, notFoundHandler } from '@mt/errors';
import { requestContextMiddleware, type Logger } from '@mt/logging';
import { metricsHandler, metricsMiddleware, type Metrics } from '@mt/metrics';
import { createProbeRouter, type Lifecycle, type ProbeOptions } from '@mt/probes';
import express, { type Express, type RequestHandler } from 'express';

export interface HttpAppOptions {
  logger: Logger;
  probes: ProbeOptions;
  /** Prometheus metrics of the process: every request is counted, and GET /metrics renders them. */
  metrics: Metrics;
  /** Middleware that must run before the probes and routes (metrics, security headers...). */
  before?: RequestHandler[];
}

/** API routes answer 503 until start-up has finished (stores connected, indexes built). */
export const rejectUntilStarted =
  (lifecycle: Lifecycle): RequestHandler =>
  (_req, _res, next) =>
    next(lifecycle.started ? undefined : errors.serviceUnavailable('service is starting'));

/**
 * The common front of every service: request id + logging, probes at the root, start-up gate. Bodies are
 * parsed by each endpoint (its own limit and content types). The caller mounts its routers, then calls
 * `finishHttpApp`.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestContextMiddleware(options.logger));
  app.use(metricsMiddleware(options.metrics));
  app.get('/metrics', metricsHandler(options.metrics));
  for (const middleware of options.before ?? []) app.use(middleware);
  app.use(createProbeRouter(options.probes));
  app.use(rejectUntilStarted(options.probes.lifecycle));
  return app;
}

/** Unknown routes → 404 payload; every error → the one error middleware. */
export function finishHttpApp(app: Express, logger: Logger): Express {
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}
