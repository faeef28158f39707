import type { Identity } from '@mt/identity';
import type { Request, Response } from 'express';
import type { RouteDecision } from './routing/route-matcher';
import type { AuthOutcome } from './authn/auth-outcome';

/**
 * What the gateway learns about a request on its way through the middleware chain, kept in `res.locals`
 * under one key with a type (res.locals itself is untyped).
 */
export interface GatewayRequestState {
  decision?: RouteDecision;
  auth?: AuthOutcome;
  /** The request body, already read by the gateway (Idempotency-Key requests): the proxy sends these bytes. */
  body?: Buffer;
}

const STATE = 'gateway';

export function gatewayState(res: Response): GatewayRequestState {
  const locals = res.locals as Record<string, unknown>;
  let state = locals[STATE] as GatewayRequestState | undefined;
  if (!state) {
    state = {};
    locals[STATE] = state;
  }
  return state;
}

/** The caller's verified identity, when the request carried a valid credential. */
export function callerIdentity(res: Response): Identity | undefined {
  const auth = gatewayState(res).auth;
  return auth?.kind === 'authenticated' ? auth.identity : undefined;
}

/**
 * The client's address, as express's `req.ip` gives it. Without a trusted proxy (the default) that is the
 * socket's address, read directly: `req.ip` would parse X-Forwarded-For on every call only to discard it.
 */
export function clientAddress(req: Request): string | undefined {
  return (req.app.settings as Record<string, unknown>)['trust proxy'] === false ? req.socket.remoteAddress : req.ip;
}
