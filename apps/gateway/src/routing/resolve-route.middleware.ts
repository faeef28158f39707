import type { ManifestRoute } from '@mt/contracts';
import type { Logger } from '@mt/logging';
import type { RouteTable } from '@mt/registry-client';
import type { RequestHandler } from 'express';
import { gatewayState } from '../request-state';
import { compileRoutes, type RouteDecision, type RouteMatcher, type RouteSource } from './route-matcher';

/**
 * The routing and access table, compiled from the gateway's own routes and the manifests of every service in
 * the route table, and recompiled only when the route table changes.
 */
export class RouteResolver {
  private readonly routeTable: RouteTable;
  private readonly gatewayRoutes: readonly ManifestRoute[];
  private readonly logger: Logger;
  private compiled: { version: number; matcher: RouteMatcher } | undefined;

  constructor(deps: { routeTable: RouteTable; gatewayRoutes: readonly ManifestRoute[]; logger: Logger }) {
    this.routeTable = deps.routeTable;
    this.gatewayRoutes = deps.gatewayRoutes;
    this.logger = deps.logger;
  }

  resolve(method: string, path: string): RouteDecision {
    return this.matcher().resolve(method, path);
  }

  private matcher(): RouteMatcher {
    const version = this.routeTable.version();
    if (this.compiled?.version === version) return this.compiled.matcher;
    const sources: RouteSource[] = [
      { upstream: { kind: 'gateway' }, routes: this.gatewayRoutes },
      ...this.routeTable.services().map((service) => ({ upstream: { kind: 'service' as const, service: service.service }, routes: service.manifest.routes })),
    ];
    const refused = (reason: string) => this.logger.warn({ reason }, 'route refused');
    this.compiled = { version, matcher: compileRoutes(sources, refused) };
    return this.compiled.matcher;
  }
}

/**
 * First step of every non-probe request: where does it go and what does it need. Until the first route
 * table has been loaded, a path the gateway does not own is a 503 (its service may well exist), not a 404.
 * Sets the low-cardinality route label for the metrics, since proxied requests have no Express route.
 */
export function resolveRouteMiddleware(resolver: RouteResolver, routeTable: RouteTable): RequestHandler {
  return (req, res, next) => {
    let decision = resolver.resolve(req.method, req.path);
    if (decision.kind === 'not_found' && !routeTable.loaded()) decision = { kind: 'unavailable', message: 'routes are not loaded yet: the registry has not answered' };
    gatewayState(res).decision = decision;
    if (decision.kind === 'route') res.locals['routeTemplate'] = decision.template;
    next();
  };
}
