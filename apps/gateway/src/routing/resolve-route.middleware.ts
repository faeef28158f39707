import type { RouteTable } from '@mt/registry-client';
import type { RequestHandler } from 'express';
import { resolveAccess } from '../authn/access-policy';
import { gatewayState } from '../request-state';

/**
 * First step of every non-probe request: where does it go and what does it need (access-policy.ts).
 * Sets the low-cardinality route label for the metrics, since proxied requests have no Express route.
 */
export function resolveRouteMiddleware(routeTable: RouteTable): RequestHandler {
  return (req, res, next) => {
    const decision = resolveAccess(req.method, req.path, (categoryId) => routeTable.hasCategory(categoryId));
    gatewayState(res).decision = decision;
    if (decision.kind === 'route') res.locals['routeTemplate'] = decision.template;
    next();
  };
}
