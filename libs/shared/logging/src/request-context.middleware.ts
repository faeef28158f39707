import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { requestContext } from './request-context';
import { REQUEST_ID_HEADER, resolveRequestId } from './request-id';

const QUIET_PATHS = new Set(['/livez', '/readyz', '/healthz', '/startupz', '/health', '/metrics']);

/**
 * Accepts a valid client X-Request-Id (or makes one), echoes it, keeps it in AsyncLocalStorage for
 * every log line of the request, and logs one line when the response finishes.
 */
export function requestContextMiddleware(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const requestId = resolveRequestId(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.locals['requestId'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    const startedAt = process.hrtime.bigint();
    requestContext.run({ requestId }, () => {
      res.on('finish', () => {
        const durationMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
        const line = {
          request_id: requestId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          duration_ms: Math.round(durationMs * 10) / 10,
        };
        if (QUIET_PATHS.has(req.path)) logger.debug(line, 'request');
        else logger.info(line, 'request');
      });
      next();
    });
  };
}
