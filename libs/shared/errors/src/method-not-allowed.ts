import type { RequestHandler } from 'express';
import { errors } from './app-error';

/** Terminal handler of a route: any other method is a 405 naming the allowed ones in `Allow`. */
export function rejectOtherMethods(allowed: readonly string[]): RequestHandler {
  const withHead = allowed.includes('GET') && !allowed.includes('HEAD') ? [...allowed, 'HEAD'] : [...allowed];
  return (_req, _res, next) => next(errors.methodNotAllowed(withHead));
}
