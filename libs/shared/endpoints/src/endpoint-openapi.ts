import { OpenAPIRegistry, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { bearerSecurity, generateFragment, registerBearerAuth, z, type OpenApiFragment } from '@mt/contracts';
import { checkGroup, fullPath, operationIdOf, pathParameters, type Endpoint, type EndpointGroup } from './endpoint';
import { COMMON_ERROR_STATUSES, operationResponses, registerResponseHeaders } from './openapi-responses';

const accessNote = (endpoint: Endpoint): string =>
  endpoint.access.kind === 'scope'
    ? `Requires a JWT, or a personal access token with the \`${endpoint.access.scope}\` scope (403 naming the scope otherwise).`
    : 'Public: no credential needed (one sent along is ignored unless it is invalid: 401).';

/** The error statuses that follow from an endpoint's shape, plus the ones it declares. */
export function errorStatusesOf(endpoint: Endpoint): number[] {
  const statuses: number[] = [400, 401, ...COMMON_ERROR_STATUSES];
  if (endpoint.access.kind === 'scope') statuses.push(403);
  if (pathParameters(endpoint.path).length > 0) statuses.push(404);
  if (endpoint.body || endpoint.rawBody) statuses.push(413, 415);
  if (endpoint.method === 'POST') statuses.push(409, 422); // Idempotency-Key: in flight, reused for another request
  statuses.push(...(endpoint.errors ?? []));
  return statuses;
}

/** The gateway honours `Idempotency-Key` on every POST it routes (apps/gateway/src/idempotency). */
const IdempotencyKeyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional()
    .openapi({
      description:
        'Makes a retried POST safe: the first request with this key runs and its 2xx answer is kept for 24 hours (at most 1 000 answers, 1 MiB, per caller: the oldest are forgotten first); the same key with the same request (method, path, query, content type, body) gets that answer again with `Idempotent-Replayed: true` and writes nothing; with a different request it is a 422 `idempotency_key_reused`; while the first is still running, a 409. After a 4xx or 5xx the key is free: a retry runs again. A 503 with `Retry-After` when the gateway holds too many request bodies at once (nothing ran). Keys are per caller. 1–255 visible ASCII characters (a quoted string is accepted).',
      example: '6f1c2a9e-3b7d-4e0a-9c55-2d8e1f4b7a10',
    }),
});

function requestOf(endpoint: Endpoint): RouteConfig['request'] {
  const request: NonNullable<RouteConfig['request']> = {};
  if (endpoint.method === 'POST') request.headers = IdempotencyKeyHeaders;
  if (endpoint.params) request.params = endpoint.params;
  if (endpoint.query && Object.keys(endpoint.query.shape).length > 0) request.query = endpoint.query;
  if (endpoint.body) request.body = { required: true, content: { 'application/json': { schema: endpoint.body } } };
  if (endpoint.rawBody) {
    const { contentTypes, description } = endpoint.rawBody;
    request.body = {
      required: true,
      description,
      content: Object.fromEntries(contentTypes.map((type) => [type, { schema: z.string().openapi({ format: 'binary' }) }])),
    };
  }
  return request;
}

/** Registers a group's public operations on a registry (internal endpoints are never documented). */
export function registerEndpoints(registry: OpenAPIRegistry, group: EndpointGroup, options = { rateLimited: true }): void {
  checkGroup(group);
  for (const [order, endpoint] of group.endpoints.entries()) {
    if (endpoint.access.kind === 'internal') continue;
    registry.registerPath({
      // Paths group a document's operations by URL; the declaration order (searches and reads before writes)
      // is kept here so the docs page can list a tag's operations the way the service declares them.
      'x-order': order,
      method: endpoint.method.toLowerCase() as RouteConfig['method'],
      path: fullPath(group, endpoint),
      operationId: operationIdOf(group, endpoint),
      summary: endpoint.summary,
      description: [accessNote(endpoint), endpoint.description].filter(Boolean).join(' '),
      tags: endpoint.tags ?? [group.tags[0].name],
      security: endpoint.access.kind === 'scope' ? bearerSecurity : [],
      request: requestOf(endpoint),
      responses: operationResponses(endpoint.responses, errorStatusesOf(endpoint), options),
      ...endpoint.openapi,
    });
  }
}

/** A service's OpenAPI fragment (paths, components), generated from the same declarations that serve it. */
export function endpointsOpenApi(groups: readonly EndpointGroup[]): OpenApiFragment {
  const registry = new OpenAPIRegistry();
  registerBearerAuth(registry);
  registerResponseHeaders(registry);
  for (const group of groups) registerEndpoints(registry, group);
  const tags = groups.filter((group) => group.endpoints.some((e) => e.access.kind !== 'internal')).flatMap((group) => group.tags);
  return { ...generateFragment(registry), tags };
}
