import type { Request } from 'express';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export const requestHasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
