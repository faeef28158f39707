import { identityMiddleware, signIdentity } from '@mt/identity';
import type { RequestHandler } from 'express';
import { INTERNAL_PREFIX } from '../proxy/forward-headers';
import { callerIdentity } from '../request-state';

/**
 * Hands the gateway's own endpoints the caller the gateway authenticated, the way every service receives
 * it (signed headers, read by the identity middleware), so their declarations check scopes like any
 * service's. Identity headers a client sent are dropped first.
 */
export function callerIdentityMiddleware(internalSecret: string): RequestHandler {
  const readIdentity = identityMiddleware(internalSecret);
  return (req, res, next) => {
    for (const name of Object.keys(req.headers)) if (name.startsWith(INTERNAL_PREFIX)) delete req.headers[name];
    const identity = callerIdentity(res);
    if (identity) Object.assign(req.headers, signIdentity(identity, String(res.locals['requestId'] ?? ''), internalSecret));
    readIdentity(req, res, next);
  };
}
