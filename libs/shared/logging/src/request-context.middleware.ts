import type { RequestHandler, Response } from 'express';
import type { Level, Logger } from 'pino';
import { requestContext } from './request-context';
import { REQUEST_ID_HEADER, resolveRequestId } from './request-id';
import { redactPath } from './secret-paths';

const PROBE_PATHS = new Set(['/livez', '/readyz', '/healthz', '/startupz', '/health']);

export interface RequestLogOptions {
  /**
   * The gateway's access log: one INFO line per client request. Behind it, a service logs its request lines
   * at debug (the gateway already has them), so a proxied request is not logged twice at INFO and the
   * registry's heartbeats and route fetches stay out of an idle stack's output.
   */
  accessLog?: boolean;
}

/**
 * The level of a request's line. Probes: debug (orchestrators call them every few seconds). 5xx: `error`
 * for a fault of ours (500...), `warn` for an unavailable dependency (502, 503, 504: the cause is logged
 * where it happened). Anything else: `info` in the access log, `debug` in a service behind the gateway.
 */
export function requestLogLevel(path: string, status: number, options: RequestLogOptions = {}): Level {
  if (PROBE_PATHS.has(path)) return 'debug';
  if (status >= 500) return status >= 502 && status <= 504 ? 'warn' : 'error';
  return options.accessLog ? 'info' : 'debug';
}

/** What the access-log listener needs of its request, kept on the response (one listener function for all). */
const STARTED_AT = Symbol('requestLog.startedAt');
type LoggedResponse = Response & { [STARTED_AT]?: bigint };

/** The request's path without its query, as the client sent it (`originalUrl`: before any rewriting). */
const pathOf = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/**
 * Accepts a valid client X-Request-Id (or makes one), echoes it, keeps it in AsyncLocalStorage for
 * every log line of the request, and logs one line when the response finishes. That line is built once,
 * from what is known at the end, by one listener shared by every request (no closure per request), and
 * only when its level is enabled. Hand-written rather than pino-http, which costs three times the CPU per
 * line for the same fields (a child logger per request; bench/README.md "Libraries judged").
 */
export function requestContextMiddleware(logger: Logger, options: RequestLogOptions = {}): RequestHandler {
  function logRequest(this: LoggedResponse): void {
    const req = this.req;
    const level = requestLogLevel(req.path, this.statusCode, options);
    if (!logger.isLevelEnabled(level)) return;
    const durationMs = Number(process.hrtime.bigint() - (this[STARTED_AT] ?? 0n)) / 1e6;
    logger[level](
      {
        request_id: this.locals['requestId'],
        method: req.method,
        path: redactPath(pathOf(req.originalUrl)),
        status: this.statusCode,
        duration_ms: Math.round(durationMs * 10) / 10,
      },
      'request',
    );
  }
  return (req, res, next) => {
    const requestId = resolveRequestId(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.locals['requestId'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    (res as LoggedResponse)[STARTED_AT] = process.hrtime.bigint();
    res.on('finish', logRequest);
    requestContext.run({ requestId }, next);
  };
}
