import type { Logger } from '@mt/logging';
import type { RouteTable } from '@mt/registry-client';
import { defineRoute } from '@mt/http';
import { parseQuery } from '@mt/validation';
import { Router, type RequestHandler } from 'express';
import { createAuthFragmentSource } from './auth-fragment';
import { NoQuerySchema } from './discovery.schemas';
import { DOCS_ASSET_ROUTE, serveDocsAsset, serveDocsPage } from './docs-page';
import { DISCOVERY_PATHS } from './gateway-openapi';
import { createOpenApiDocument } from './openapi-document';

export interface DiscoveryDeps {
  routeTable: RouteTable;
  /** Base URL of the auth service, whose OpenAPI fragment is part of the merged document. */
  authUrl: string;
  internalSecret: string;
  logger: Logger;
}

const rejectQuery: RequestHandler = (req, _res, next) => {
  parseQuery(NoQuerySchema, req);
  next();
};

/**
 * The gateway's public discovery routes: GET /api/v1/categories, /api/v1/openapi.json and the docs page
 * with its assets. Mount before the catalog proxy (these paths are not categories).
 */
export function createDiscoveryRouter(deps: DiscoveryDeps): Router {
  const { routeTable, logger } = deps;
  const authFragment = createAuthFragmentSource({ authUrl: deps.authUrl, internalSecret: deps.internalSecret, logger });
  const openApi = createOpenApiDocument({ routeTable, authFragment, logger });
  const router = Router();

  defineRoute(router, DISCOVERY_PATHS.categories, {
    get: [
      rejectQuery,
      (_req, res) => {
        res.setHeader('Cache-Control', 'no-cache');
        // name and endpoint follow from the id (API.md §4), whatever a registration said.
        res.json(
          routeTable.categories().map(({ id, display_name, description, icon }) => ({
            id,
            name: id,
            display_name,
            description,
            endpoint: `/api/v1/${id}`,
            icon,
          })),
        );
      },
    ],
  });

  defineRoute(router, DISCOVERY_PATHS.openapi, {
    get: [
      rejectQuery,
      async (_req, res) => {
        const json = await openApi.json();
        res.setHeader('Cache-Control', 'no-cache');
        res.type('application/json').send(json);
      },
    ],
  });

  defineRoute(router, DISCOVERY_PATHS.docs, { get: [rejectQuery, serveDocsPage] });
  defineRoute(router, DOCS_ASSET_ROUTE, { get: serveDocsAsset });

  return router;
}
