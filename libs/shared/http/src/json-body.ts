import { errors } from '@mt/errors';
import express, { type Request, type RequestHandler } from 'express';

export const BODY_LIMIT_BYTES = 1024 * 1024;
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPES = ['application/json', 'application/*+json'];

export const requestHasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** 415 for a body that is not JSON on POST/PUT/PATCH; a missing body is left to validation (400). */
export const requireJsonContentType: RequestHandler = (req, _res, next) => {
  if (METHODS_WITH_BODY.has(req.method) && requestHasBody(req) && !req.is(JSON_TYPES)) {
    return next(errors.unsupportedMediaType());
  }
  next();
};

/** JSON body parsing with the contract's 1 MiB limit (413) and strict top-level values (400). */
export const jsonBody = (): RequestHandler[] => [
  requireJsonContentType,
  express.json({ limit: BODY_LIMIT_BYTES, strict: true, type: JSON_TYPES }),
];
