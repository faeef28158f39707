import { errors } from '@mt/errors';
import cors from 'cors';
import type { RequestHandler } from 'express';

export const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];

const isPreflight = (method: string, headers: Record<string, unknown>) =>
  method === 'OPTIONS' && headers['origin'] !== undefined && headers['access-control-request-method'] !== undefined;

/**
 * Cross-origin access for the configured origins only (`*` = any origin); empty = none. Credentials are
 * bearer tokens, never cookies, so `Access-Control-Allow-Credentials` is not sent. Preflights from an
 * allowed origin are answered here (204); from any other origin they get a 403 without CORS headers.
 */
export function corsMiddleware(allowedOrigins: readonly string[]): RequestHandler {
  const anyOrigin = allowedOrigins.includes('*');
  const allowed = new Set(allowedOrigins);
  const isAllowed = (origin: string | undefined) => origin !== undefined && (anyOrigin || allowed.has(origin));
  const handler = cors({
    origin: (origin, callback) => callback(null, isAllowed(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
  return (req, res, next) => {
    // No origin allowed and not a cross-origin request: there is nothing to add (and no Vary to send).
    if (allowedOrigins.length === 0 && req.headers.origin === undefined) return next();
    // Caches must not hand one origin's answer (with or without CORS headers) to another.
    if (allowedOrigins.length > 0) res.vary('Origin');
    if (isPreflight(req.method, req.headers) && !isAllowed(req.headers.origin)) {
      return next(errors.forbidden('origin not allowed'));
    }
    handler(req, res, next);
  };
}
