import type { Request, RequestHandler, Response } from 'express';
import type { Metrics } from './metrics';

/** The label of every request that no route matched: never the raw path (unbounded label values). */
export const UNMATCHED_ROUTE = 'unmatched';
/** The status label of a request whose client went away before the response was complete. */
export const ABORTED_STATUS = 'aborted';

const MATCHED_TEMPLATE = Symbol('metrics.matchedRouteTemplate');
type TrackedRequest = Request & { [MATCHED_TEMPLATE]?: string };

const templateOfRoutePath = (path: unknown): string | undefined => {
  if (typeof path === 'string') return path;
  if (path instanceof RegExp) return String(path);
  if (Array.isArray(path)) return path.map(String).join('|');
  return undefined;
};

/**
 * Express sets `req.route` when a route matches, while `req.baseUrl` is still the mount path of the
 * router holding it. When an error then leaves that router, express restores `baseUrl` but keeps
 * `req.route`, so reading both at the end would label a 404/405 thrown under `/api/v1/auth` as plain
 * `/tokens/:id`. Remembering the full template at the moment of the match keeps the label right.
 */
function rememberRouteTemplates(req: TrackedRequest): void {
  let route: unknown = req.route;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: unknown) => {
      route = value;
      const path = templateOfRoutePath((value as { path?: unknown } | undefined)?.path);
      if (path !== undefined) req[MATCHED_TEMPLATE] = `${req.baseUrl}${path}`;
    },
  });
}

/**
 * A low-cardinality route label: what a router set in `res.locals.routeTemplate` (the gateway's proxied
 * requests), else the matched route template (mount path + route path), else `unmatched`.
 * Routers must be mounted at fixed paths: a parameter in a mount path reaches the label as its value.
 */
export function routeTemplateOf(req: Request, res: Response): string {
  const explicit = res.locals['routeTemplate'];
  if (typeof explicit === 'string') return explicit;
  const remembered = (req as TrackedRequest)[MATCHED_TEMPLATE];
  if (remembered !== undefined) return remembered;
  const path = templateOfRoutePath((req as Request & { route?: { path?: unknown } }).route?.path);
  if (path !== undefined) return `${req.baseUrl}${path}`;
  return UNMATCHED_ROUTE;
}

/**
 * Counts and times every request once, when its connection is done with it: a finished response is
 * labelled with its status, one the client abandoned (timeouts, cancelled calls) with `aborted`.
 */
export function metricsMiddleware(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const stopTimer = metrics.httpDuration.startTimer();
    rememberRouteTemplates(req);
    res.once('close', () => {
      const status = res.writableFinished ? String(res.statusCode) : ABORTED_STATUS;
      const labels = { method: req.method, route: routeTemplateOf(req, res), status };
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
