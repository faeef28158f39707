import type { RequestHandler } from 'express';
import type { Level, Logger } from 'pino';
import { requestContext } from './request-context';
import { REQUEST_ID_HEADER, resolveRequestId } from './request-id';

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

/**
 * Accepts a valid client X-Request-Id (or makes one), echoes it, keeps it in AsyncLocalStorage for
 * every log line of the request, and logs one line when the response finishes.
 */
export function requestContextMiddleware(logger: Logger, options: RequestLogOptions = {}): RequestHandler {
  return (req, res, next) => {
    const requestId = resolveRequestId(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.locals['requestId'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    const startedAt = process.hrtime.bigint();
    requestContext.run({ requestId }, () => {
      res.on('finish', () => {
        const level = requestLogLevel(req.path, res.statusCode, options);
        if (!logger.isLevelEnabled(level)) return;
        const durationMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
        const line = {
          request_id: requestId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          duration_ms: Math.round(durationMs * 10) / 10,
        };
        logger[level](line, 'request');
      });
      next();
    });
  };
}
