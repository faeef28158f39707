import type { Request, RequestHandler, Response } from 'express';
import type { Metrics } from './metrics';

/** A low-cardinality route label: the matched template, or what a router set in res.locals.routeTemplate. */
export function routeTemplateOf(req: Request, res: Response): string {
  const explicit = res.locals['routeTemplate'];
  if (typeof explicit === 'string') return explicit;
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  return 'unmatched';
}

/** Counts and times every request when its response finishes. */
export function metricsMiddleware(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const stopTimer = metrics.httpDuration.startTimer();
    res.on('finish', () => {
      const labels = { method: req.method, route: routeTemplateOf(req, res), status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      stopTimer(labels);
    });
    next();
  };
}

/** GET /metrics in the Prometheus text format. */
export function metricsHandler(metrics: Metrics): RequestHandler {
  return async (_req, res) => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(await metrics.registry.metrics());
  };
}
