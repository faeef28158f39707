import { errors } from '@mt/errors';
import type { Scope } from '@mt/tokens';
import type { Request, RequestHandler } from 'express';
import { INTERNAL_SECRET_HEADER, type Identity } from './identity';
import { hasIdentityHeaders, secretsEqual, verifyIdentity } from './identity-signature';

const IDENTITY = Symbol('identity');
type WithIdentity = Request & { [IDENTITY]?: Identity };

/**
 * Reads the gateway-signed identity. Requests without identity headers stay anonymous; any
 * identity header without a valid signature is a 401 (a direct caller cannot act as a user).
 */
export function identityMiddleware(secret: string): RequestHandler {
  return (req, res, next) => {
    if (!hasIdentityHeaders(req.headers)) return next();
    const check = verifyIdentity(req.headers, String(res.locals['requestId'] ?? ''), secret);
    if (!check.ok) return next(errors.unauthorized('invalid identity signature'));
    (req as WithIdentity)[IDENTITY] = check.identity;
    next();
  };
}

export const identityOf = (req: Request): Identity | undefined => (req as WithIdentity)[IDENTITY];

/** The caller's identity, or a 401 when the request is anonymous. */
export function requireIdentity(req: Request): Identity {
  const identity = identityOf(req);
  if (!identity) throw errors.unauthorized();
  return identity;
}

/** Route guard: authenticated, and holding `scope` (403 naming the missing scope otherwise). */
export function requireScope(scope: Scope): RequestHandler {
  return (req, _res, next) => {
    const identity = identityOf(req);
    if (!identity) return next(errors.unauthorized());
    if (!identity.scopes.includes(scope)) return next(errors.forbidden(`token lacks the '${scope}' scope`));
    next();
  };
}

/** Guard for internal endpoints: the shared secret in a header, compared in constant time. */
export function requireInternalSecret(secret: string): RequestHandler {
  return (req, _res, next) => {
    const given = req.headers[INTERNAL_SECRET_HEADER];
    next(secretsEqual(typeof given === 'string' ? given : undefined, secret) ? undefined : errors.unauthorized('internal endpoint'));
  };
}
