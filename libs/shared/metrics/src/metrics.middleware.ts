import type { Request, RequestHandler, Response } from 'express';
import type { Metrics } from './metrics';

/** The label of every request that no route matched: never the raw path (unbounded label values). */
export const UNMATCHED_ROUTE = 'unmatched';
/** The status label of a request whose client went away before the response was complete. */
export const ABORTED_STATUS = 'aborted';

const MATCHED_TEMPLATE = Symbol('metrics.matchedRouteTemplate');
const ROUTE = Symbol('metrics.route');
type TrackedRequest = Request & { [MATCHED_TEMPLATE]?: string; [ROUTE]?: unknown };
const STARTED_AT = Symbol('metrics.startedAt');
type TimedResponse = Response & { [STARTED_AT]?: bigint };

const templateOfRoutePath = (path: unknown): string | undefined => {
  if (typeof path === 'string') return path;
  if (path instanceof RegExp) return String(path);
  if (Array.isArray(path)) return path.map(String).join('|');
  return undefined;
};

/** Request prototypes (one per express app) whose `route` property already remembers templates. */
const trackedPrototypes = new WeakSet<object>();

/**
 * Express sets `req.route` when a route matches, while `req.baseUrl` is still the mount path of the
 * router holding it. When an error then leaves that router, express restores `baseUrl` but keeps
 * `req.route`, so reading both at the end would label a 404/405 thrown under `/api/v1/auth` as plain
 * `/tokens/:id`. Remembering the full template at the moment of the match keeps the label right.
 * The accessor is installed once on the app's request prototype (express gives every request that
 * prototype) instead of on each request, which made every request object a slow dictionary object
 * (with the label children below: about 8 % less CPU per request in the gateway).
 */
function rememberRouteTemplates(req: TrackedRequest): void {
  const prototype = Object.getPrototypeOf(req) as object | null;
  if (!prototype || trackedPrototypes.has(prototype)) return;
  trackedPrototypes.add(prototype);
  Object.defineProperty(prototype, 'route', {
    configurable: true,
    enumerable: true,
    get(this: TrackedRequest) {
      return this[ROUTE];
    },
    set(this: TrackedRequest, value: unknown) {
      this[ROUTE] = value;
      const path = templateOfRoutePath((value as { path?: unknown } | undefined)?.path);
      if (path !== undefined) this[MATCHED_TEMPLATE] = `${this.baseUrl}${path}`;
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
  // The counter and histogram children of each label set seen so far (few: the labels are low-cardinality
  // by design), so a request neither builds a timer closure nor merges and re-validates its labels.
  const children = new Map<
    string,
    { count: { inc: () => void }; duration: { observe: (seconds: number) => void } }
  >();
  // One listener for every request (no closure per request): what it needs is on the response.
  function countRequest(this: TimedResponse): void {
    const req = this.req;
    const status = this.writableFinished ? String(this.statusCode) : ABORTED_STATUS;
    const route = routeTemplateOf(req, this);
    const key = `${req.method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels = { method: req.method, route, status };
      child = { count: metrics.httpRequests.labels(labels), duration: metrics.httpDuration.labels(labels) };
      children.set(key, child);
    }
    child.count.inc();
    child.duration.observe(Number(process.hrtime.bigint() - (this[STARTED_AT] ?? 0n)) / 1e9);
  }
  return (req, res, next) => {
    (res as TimedResponse)[STARTED_AT] = process.hrtime.bigint();
    rememberRouteTemplates(req);
    // `on`, not `once`: a response closes once, and `once` would wrap the listener in a closure per request.
    res.on('close', countRequest);
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
