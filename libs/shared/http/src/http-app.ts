import { errorMiddleware, errors, notFoundHandler } from '@mt/errors';
import { requestContextMiddleware, type Logger } from '@mt/logging';
import { metricsMiddleware, type Metrics } from '@mt/metrics';
import {
  createHealthReport,
  createProbeRouter,
  isProbePath,
  type HealthAnswer,
  type HealthView,
  type Lifecycle,
  type ProbeOptions,
} from '@mt/probes';
import express, { type Express, type RequestHandler } from 'express';
import { inSequence } from './in-sequence';

export interface HttpAppOptions {
  logger: Logger;
  probes: ProbeOptions;
  /** Prometheus metrics of the process: every request is counted (the metrics port renders them). */
  metrics: Metrics;
  /** The gateway: its request lines are the access log, at INFO (see requestLogLevel). */
  accessLog?: boolean;
  /** Middleware that must run before the probes and routes (metrics, security headers...). */
  before?: RequestHandler[];
}

/** API routes answer 503 until start-up has finished (stores connected, indexes built). */
export const rejectUntilStarted =
  (lifecycle: Lifecycle): RequestHandler =>
  (_req, _res, next) =>
    next(lifecycle.started ? undefined : errors.serviceUnavailable('service is starting'));

const HEALTH_REPORT = Symbol('http.healthReport');
type WithHealthReport = Express & { [HEALTH_REPORT]?: (view: HealthView) => Promise<HealthAnswer> };

/** The health report of an app made by `createHttpApp`, for the detailed /health of the metrics port. */
export function healthReportOf(app: Express): (view: HealthView) => Promise<HealthAnswer> {
  const report = (app as WithHealthReport)[HEALTH_REPORT];
  if (!report) throw new Error('not an app made by createHttpApp: it has no health report');
  return report;
}

/**
 * The common front of every service: request id + logging, probes at the root, start-up gate. Bodies are
 * parsed by each endpoint (its own limit and content types). The caller mounts its routers, then calls
 * `finishHttpApp`. Metrics are counted here but served on the metrics port only (see createMetricsApp):
 * GET /metrics on this port is a 404 like any unknown path.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const app: WithHealthReport = express();
  app[HEALTH_REPORT] = createHealthReport(options.probes);
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Only probe paths walk the probe router (a router's layers are matched one by one on every request).
  const probes = createProbeRouter(options.probes);
  // Every request takes these steps: one express layer for all of them (bench/README.md, issue 21).
  app.use(
    inSequence([
      requestContextMiddleware(options.logger, { accessLog: options.accessLog }),
      metricsMiddleware(options.metrics),
      ...(options.before ?? []),
      (req, res, next) => (isProbePath(req.path) ? probes(req, res, next) : next()),
      rejectUntilStarted(options.probes.lifecycle),
    ]),
  );
  return app;
}

/** Unknown routes → 404 payload; every error → the one error middleware. */
export function finishHttpApp(app: Express, logger: Logger): Express {
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}
