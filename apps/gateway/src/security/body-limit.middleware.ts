import { errors } from '@mt/errors';
import type { RequestHandler } from 'express';
import { gatewayState } from '../request-state';

const mib = (bytes: number) => `${Number((bytes / (1024 * 1024)).toFixed(2))} MiB`;

/**
 * 413 for a declared body over the route's limit (from its manifest: 1 MiB for JSON, more for uploads),
 * before anything is proxied. The gateway buffers no body but an `Idempotency-Key` request's (bounded there);
 * a chunked body (no Content-Length) streams through and the service's own parser enforces the same limit.
 */
export const bodyLimit: RequestHandler = (req, res, next) => {
  const decision = gatewayState(res).decision;
  const declared = req.headers['content-length'];
  if (decision?.kind !== 'route' || declared === undefined) return next();
  next(Number(declared) > decision.bodyLimit ? errors.payloadTooLarge(`request body exceeds ${mib(decision.bodyLimit)}`) : undefined);
};
