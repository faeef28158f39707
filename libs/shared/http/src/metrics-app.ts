import { errorMiddleware, notFoundHandler, rejectOtherMethods } from '@mt/errors';
import { requestContextMiddleware, type Logger } from '@mt/logging';
import { metricsHandler, type Metrics } from '@mt/metrics';
import type { HealthAnswer, HealthView } from '@mt/probes';
import express, { type Express } from 'express';

export interface MetricsAppOptions {
  metrics: Metrics;
  /** The service's health report (see `healthReportOf`); served in its detailed view. */
  health: (view: HealthView) => Promise<HealthAnswer>;
  logger: Logger;
}

/**
 * The operator port (METRICS_PORT, 9464 by default): GET /metrics in the Prometheus text format and the
 * detailed GET /health (on the gateway: every upstream instance with its id and address). It is never
 * published beside the API. Its requests are not counted in the request metrics and are logged at debug
 * only, so a scrape every few seconds neither moves the figures it reports nor fills the logs.
 */
export function createMetricsApp({ metrics, health, logger }: MetricsAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContextMiddleware(logger));
  app
    .route('/metrics')
    .get(metricsHandler(metrics))
    .all(rejectOtherMethods(['GET']));
  app
    .route('/health')
    .get(async (_req, res) => {
      const { status, body } = await health('detailed');
      res.setHeader('Cache-Control', 'no-store');
      res.status(status).json(body);
    })
    .all(rejectOtherMethods(['GET']));
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}
