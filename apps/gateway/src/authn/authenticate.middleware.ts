import { AppError, errors } from '@mt/errors';
import type { Logger } from '@mt/logging';
import type { RequestHandler } from 'express';
import { gatewayState } from '../request-state';
import type { Authenticator } from './authenticator';

/**
 * Establishes who is calling, for routed API requests only (unknown routes and 405s ignore credentials).
 * The outcome is recorded, not acted on: the rate limiter needs it first (a rejected request still counts
 * against the client's IP), then `enforceAccess` turns it into 401/403/503 or lets the request through.
 */
export function authenticateMiddleware(authenticator: Authenticator, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const state = gatewayState(res);
    if (state.decision?.kind !== 'route') return next();
    const authorization = req.headers.authorization;
    // No credential (most public reads): decided at once, without a promise on the hot path.
    if (authorization === undefined) {
      state.auth = { kind: 'anonymous' };
      return next();
    }
    authenticator
      .authenticate(authorization)
      .then((auth) => {
        state.auth = auth;
        if (auth.kind === 'invalid') logger.info({ reason: auth.reason }, 'credential rejected');
        if (auth.kind === 'undecidable') logger.warn({ reason: auth.reason }, 'credential could not be verified');
        next();
      })
      .catch(next);
  };
}

const unauthorized = (message: string, invalidToken: boolean) =>
  new AppError('unauthorized', message, {
    headers: { 'WWW-Authenticate': invalidToken ? 'Bearer error="invalid_token"' : 'Bearer' },
  });

/**
 * The access decision, in order: unknown route 404, wrong method 405, invalid credential 401 (even on a
 * public endpoint), public → through (a credential that could not be verified is then ignored: the answer
 * does not depend on it), no credential 401, undecidable 503 (fail closed), missing scope 403.
 */
export const enforceAccess: RequestHandler = (_req, res, next) => {
  const { decision, auth = { kind: 'anonymous' } } = gatewayState(res);
  if (!decision) return next();
  if (decision.kind === 'not_found') return next(errors.notFound(decision.message));
  if (decision.kind === 'method_not_allowed') return next(errors.methodNotAllowed(decision.allow));
  if (decision.kind === 'unavailable') return next(errors.serviceUnavailable(decision.message));
  if (auth.kind === 'invalid') return next(unauthorized(auth.publicMessage, true));
  if (decision.access.kind === 'public') {
    if (auth.kind === 'undecidable') gatewayState(res).auth = { kind: 'anonymous' };
    return next();
  }
  if (auth.kind === 'anonymous') return next(unauthorized('authentication required', false));
  if (auth.kind === 'undecidable') return next(errors.serviceUnavailable('authentication is temporarily unavailable'));
  const { scope } = decision.access;
  if (!(auth.identity.scopes as readonly string[]).includes(scope)) return next(errors.forbidden(`token lacks the '${scope}' scope`));
  next();
};
