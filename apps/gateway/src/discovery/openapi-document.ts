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

const tagsOf = (service: string, fragment: OpenApiFragment): [OpenApiTag, ...OpenApiTag[]] => {
  const [first, ...rest] = fragment.tags ?? [];
  return first ? [first, ...rest] : [{ name: service, description: `The ${service} service` }];
};

/**
 * The document clients generate from: the gateway's own operations, then every known service's fragment
 * from the route table (services in id order; the gateway's tags listed last).
 */
export class OpenApiDocument {
  private gateway: OpenApiFragment | undefined;
  private cache: { version: number; json: string } | undefined;

  constructor(private readonly deps: { routeTable: RouteTable; gatewayFragment: () => OpenApiFragment; logger: Logger }) {}

  /** The merged document, serialized; rebuilt only when the route table changed. */
  async json(): Promise<string> {
    const { routeTable, logger } = this.deps;
    const version = routeTable.version();
    if (this.cache?.version === version) return this.cache.json;
    const gateway = (this.gateway ??= this.deps.gatewayFragment());
    // The gateway first, so its definitions (Error, bearerAuth) stand when a fragment disagrees.
    const sources: OpenApiSource[] = [{ id: 'gateway', fragment: gateway, tags: tagsOf('gateway', gateway), displayRank: Number.MAX_SAFE_INTEGER }];
    for (const { service, fragment } of routeTable.openApiFragments()) {
      sources.push({ id: service, pathPrefix: `/api/v1/${service}`, fragment, tags: tagsOf(service, fragment) });
    }
    const { document, warnings } = mergeOpenApi(SKELETON, sources);
    for (const warning of warnings) logger.warn({ reason: warning }, 'OpenAPI merge adjusted a fragment');
    this.cache = { version, json: JSON.stringify(document) };
    return this.cache.json;
  }
}
