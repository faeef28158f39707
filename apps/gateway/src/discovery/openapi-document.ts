import type { OpenApiFragment } from '@mt/contracts';
import type { Logger } from '@mt/logging';
import type { RouteTable } from '@mt/registry-client';
import { mergeOpenApi, type OpenApiSource, type OpenApiTag } from './openapi-merge';

export const API_VERSION = '1.0.0';

const DESCRIPTION = [
  'The public API of the media tracker, served by one gateway. JSON in and out, `snake_case` fields,',
  'ISO 8601 UTC timestamps. Every response carries `X-Request-Id`; every error is the `Error` payload.',
  '',
  'Authentication: `Authorization: Bearer <credential>` with a JWT from `POST /api/v1/auth/login` or a',
  'personal access token (`mtp_...`). Each operation says which PAT scope it needs (a JWT has every scope',
  'of its user). Public operations ignore a valid credential and reject an invalid one with 401.',
  '',
  'Operation ids follow one scheme: `<service><VerbNoun>` (`authLogin`, `moviesAddListEntry`). Schemas every',
  'category shares (`ListEntry`, `CatalogEntry`, ...) are declared once; a category adds its own fields on top',
  '(`MoviesEntry` = `CatalogEntry` + `director`, `runtime_minutes`).',
  '',
  'Categories come and go with their catalog instances. A category whose instances are all restarting',
  'stays in this document (its operations answer 503 meanwhile); one that an operator removed leaves it.',
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

export interface OpenApiDocument {
  /** The merged document, serialized; rebuilt only when the route table changed. */
  json(): Promise<string>;
}

const tagsOf = (service: string, fragment: OpenApiFragment): [OpenApiTag, ...OpenApiTag[]] => {
  const [first, ...rest] = fragment.tags ?? [];
  return first ? [first, ...rest] : [{ name: service, description: `The ${service} service` }];
};

/**
 * The document clients generate from: the gateway's own operations, then every known service's fragment
 * from the route table (services in id order; the gateway's tags listed last).
 */
export function createOpenApiDocument(deps: { routeTable: RouteTable; gatewayFragment: () => OpenApiFragment; logger: Logger }): OpenApiDocument {
  const { routeTable, logger } = deps;
  let gateway: OpenApiFragment | undefined;
  let cache: { version: number; json: string } | undefined;

  return {
    async json() {
      const version = routeTable.version();
      if (cache?.version === version) return cache.json;
      gateway ??= deps.gatewayFragment();
      // The gateway first, so its definitions (Error, bearerAuth) stand when a fragment disagrees.
      const sources: OpenApiSource[] = [{ id: 'gateway', fragment: gateway, tags: tagsOf('gateway', gateway), displayRank: Number.MAX_SAFE_INTEGER }];
      for (const { service, fragment } of routeTable.openApiFragments()) {
        sources.push({ id: service, pathPrefix: `/api/v1/${service}`, fragment, tags: tagsOf(service, fragment) });
      }
      const { document, warnings } = mergeOpenApi(SKELETON, sources);
      for (const warning of warnings) logger.warn({ reason: warning }, 'OpenAPI merge adjusted a fragment');
      cache = { version, json: JSON.stringify(document) };
      return cache.json;
    },
  };
}
