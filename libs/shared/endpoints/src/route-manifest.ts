import type { ManifestRoute, RouteManifest } from '@mt/contracts';
import { createHash } from 'node:crypto';
import { bodyLimitOf, checkGroup, fullPath, type EndpointGroup } from './endpoint';

/** Code-point order, not the locale's: the digest must be the same on every machine. */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const compare = (a: ManifestRoute, b: ManifestRoute) => byCodePoint(a.path, b.path) || byCodePoint(a.method, b.method);

/**
 * The route manifest a service hands the registry: every public endpoint's method, path template, access
 * and body limit (internal endpoints are never routed by the gateway). The digest is a hash of the sorted
 * routes, so two instances with the same endpoints agree on it whatever their declaration order.
 */
export function routeManifest(groups: readonly EndpointGroup[]): RouteManifest {
  const routes: ManifestRoute[] = [];
  for (const group of groups) {
    checkGroup(group);
    for (const endpoint of group.endpoints) {
      const { access } = endpoint;
      if (access.kind === 'internal') continue;
      routes.push({
        method: endpoint.method,
        path: fullPath(group, endpoint),
        access: access.kind === 'public' ? { kind: 'public' } : { kind: 'scope', scope: access.scope },
        body_limit: bodyLimitOf(endpoint),
      });
    }
  }
  routes.sort(compare);
  const digest = createHash('sha256').update(JSON.stringify(routes)).digest('hex').slice(0, 32);
  return { digest, routes };
}
