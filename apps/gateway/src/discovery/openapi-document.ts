import type { Logger } from '@mt/logging';
import type { RouteTable } from '@mt/registry-client';
import type { AuthFragmentSource } from './auth-fragment';
import { gatewayFragment, GATEWAY_TAGS } from './gateway-openapi';
import { mergeOpenApi, type OpenApiSource, type OpenApiTag } from './openapi-merge';

export const API_VERSION = '1.0.0';

const DESCRIPTION = [
  'The public API of the media tracker, served by one gateway. JSON in and out, `snake_case` fields,',
  'ISO 8601 UTC timestamps. Every response carries `X-Request-Id`; every error is the `Error` payload.',
  '',
  'Authentication: `Authorization: Bearer <credential>` with a JWT from `POST /api/v1/auth/login` or a',
  'personal access token (`mtp_...`). PAT scopes: `profile:read`, `catalog:write`, `list:read`,',
  '`list:write`, `account` (a JWT has all). Public operations ignore a valid credential and reject an',
  'invalid one with 401.',
  '',
  'Categories come and go with their catalog instances: this document lists the categories live when',
  'it was served.',
].join('\n');

const SKELETON = {
  openapi: '3.0.3',
  info: {
    title: 'Media Tracker API',
    version: API_VERSION,
    description: DESCRIPTION,
    license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
  },
  // Relative: "try it out" calls the origin that served the document, whatever host name the client used.
  servers: [{ url: '/', description: 'This gateway' }],
};

const AUTH_TAG: OpenApiTag = { name: 'auth', description: 'Accounts, login, password changes and personal access tokens' };

export interface OpenApiDocument {
  /** The merged document, serialized; rebuilt only when the route table or the auth fragment changed. */
  json(): Promise<string>;
}

export function createOpenApiDocument(deps: { routeTable: RouteTable; authFragment: AuthFragmentSource; logger: Logger }): OpenApiDocument {
  const { routeTable, authFragment, logger } = deps;
  const gateway = gatewayFragment();
  let cache: { key: string; json: string } | undefined;

  return {
    async json() {
      const auth = await authFragment.current();
      const key = `${routeTable.version()}:${auth.revision}`;
      if (cache?.key === key) return cache.json;

      const categories = new Map(routeTable.categories().map((category) => [category.id, category]));
      // The gateway first, so its definitions (Error, bearerAuth) stand when a fragment disagrees.
      // Its tags are listed last, after the auth service's and the categories'.
      const sources: OpenApiSource[] = [{ id: 'gateway', fragment: gateway, tags: GATEWAY_TAGS, displayRank: Number.MAX_SAFE_INTEGER }];
      if (auth.fragment) sources.push({ id: 'auth', pathPrefix: '/api/v1/auth', fragment: auth.fragment, tags: [AUTH_TAG] });
      for (const { categoryId, fragment } of routeTable.openApiFragments()) {
        const category = categories.get(categoryId);
        const description = category ? `${category.display_name}: ${category.description}` : `The ${categoryId} category`;
        sources.push({ id: categoryId, pathPrefix: `/api/v1/${categoryId}`, fragment, tags: [{ name: categoryId, description }] });
      }
      const { document, warnings } = mergeOpenApi(SKELETON, sources);
      for (const warning of warnings) logger.warn({ reason: warning }, 'OpenAPI merge adjusted a fragment');
      if (!auth.fragment) logger.warn('serving the OpenAPI document without the auth operations (auth service fragment unavailable)');
      cache = { key, json: JSON.stringify(document) };
      return cache.json;
    },
  };
}
