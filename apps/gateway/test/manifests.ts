// Route manifests as services send them (a fixture: the gateway's own source names no service's route).
// Shaped like docs/api.md "Account" (auth) and "The catalog of a category" / "Your list in a category".
import type { ManifestRoute, RouteAccess } from '@mt/contracts';

const PUBLIC: RouteAccess = { kind: 'public' };
const scope = (name: string): RouteAccess => ({ kind: 'scope', scope: name });
const MIB = 1024 * 1024;

const routes = (base: string, table: Array<[ManifestRoute['method'], string, RouteAccess]>): ManifestRoute[] =>
  table.map(([method, path, access]) => ({ method, path: `${base}${path}`, access, body_limit: MIB }));

export const authRoutes = (): ManifestRoute[] =>
  routes('/api/v1/auth', [
    ['POST', '/register', PUBLIC],
    ['POST', '/login', PUBLIC],
    ['GET', '/me', scope('profile:read')],
    ['PUT', '/me', scope('account')],
    ['DELETE', '/me', scope('account')],
    ['PUT', '/password', scope('account')],
    ['GET', '/tokens', scope('account')],
    ['POST', '/tokens', scope('account')],
    ['DELETE', '/tokens/{id}', scope('account')],
  ]);

export const catalogRoutes = (service: string): ManifestRoute[] =>
  routes(`/api/v1/${service}`, [
    ['GET', '', PUBLIC],
    ['POST', '', scope('catalog:write')],
    ['GET', '/{id}', PUBLIC],
    ['PATCH', '/{id}', scope('catalog:write')],
    ['GET', '/list', scope('list:read')],
    ['POST', '/list', scope('list:write')],
    ['GET', '/list/{item_id}', scope('list:read')],
    ['PATCH', '/list/{item_id}', scope('list:write')],
    ['DELETE', '/list/{item_id}', scope('list:write')],
    ['POST', '/bulk-status', scope('list:write')],
    ['POST', '/bulk-delete', scope('list:write')],
  ]);
