import { rejectOtherMethods } from '@mt/errors';
import type { RequestHandler, Router } from 'express';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type RouteHandlers = Partial<Record<HttpMethod, RequestHandler | RequestHandler[]>>;

/** Registers a path's handlers; every other method on the path answers 405 with `Allow`. */
export function defineRoute(router: Router, path: string, handlers: RouteHandlers): void {
  const route = router.route(path);
  const methods = Object.keys(handlers) as HttpMethod[];
  for (const method of methods) route[method](...[handlers[method] as RequestHandler | RequestHandler[]].flat());
  route.all(rejectOtherMethods(methods.map((method) => method.toUpperCase())));
}
