import { errors, type AppError } from '@mt/errors';
import type { Logger } from '@mt/logging';
import type { Request, RequestHandler, Response } from 'express';
import { callerIdentity, clientAddress } from '../request-state';
import type { RateLimiter, RateLimitVerdict } from './rate-limiter';

/** Per user when authenticated, per client IP (as `TRUST_PROXY` lets Express see it) otherwise. */
export function rateLimitSubject(req: Request, res: Response): string {
  const identity = callerIdentity(res);
  return identity ? `user:${identity.userId}` : `ip:${clientAddress(req) ?? 'unknown'}`;
}

/**
 * Counts every API request (probes never reach it) and answers 429 + Retry-After over the limit, with
 * RateLimit-Limit/-Remaining/-Reset on every response. Fails open: when Redis cannot count, the request
 * goes through without the headers (logged at most every 10 s, so an outage does not flood the logs).
 */
export function rateLimitMiddleware(limiter: RateLimiter | undefined, logger: Logger): RequestHandler {
  if (!limiter) return (_req, _res, next) => next();
  let lastWarnAt = 0;
  const limit = String(limiter.limit);
  const apply = (res: Response, verdict: RateLimitVerdict): AppError | undefined => {
    res.setHeader('RateLimit-Limit', limit);
    res.setHeader('RateLimit-Remaining', String(verdict.remaining));
    res.setHeader('RateLimit-Reset', String(verdict.resetSeconds));
    return verdict.allowed ? undefined : errors.rateLimited(verdict.resetSeconds);
  };
  return (req, res, next) => {
    const subject = rateLimitSubject(req, res);
    // Counted locally (the usual case, see rate-limiter.ts): no promise and no closure on the hot path.
    const counted = limiter.tryHit(subject);
    if (counted) return next(apply(res, counted));
    limiter
      .hit(subject)
      .then(
        (verdict) => next(apply(res, verdict)),
        (error: Error) => {
          if (Date.now() - lastWarnAt > 10_000) {
            lastWarnAt = Date.now();
            logger.warn({ reason: error.message }, 'rate limit not enforced: Redis unavailable');
          }
          next();
        },
      )
      .catch(next);
  };
}
