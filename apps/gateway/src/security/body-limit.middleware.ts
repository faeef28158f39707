import { errors } from '@mt/errors';
import { BODY_LIMIT_BYTES } from '@mt/http';
import type { RequestHandler } from 'express';

/**
 * 413 for a declared body over 1 MiB, before anything is proxied. The gateway never buffers bodies; a
 * chunked body (no Content-Length) streams through and the service's own parser enforces the limit.
 */
export const bodyLimit: RequestHandler = (req, _res, next) => {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > BODY_LIMIT_BYTES) return next(errors.payloadTooLarge());
  next();
};
