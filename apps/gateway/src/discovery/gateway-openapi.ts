import { OpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { generateFragment, registerBearerAuth, responses, z, type OpenApiFragment } from '@mt/contracts';
import {
  CategoryListSchema,
  HealthReportSchema,
  HealthySchema,
  LivenessSchema,
  NoQuerySchema,
  NotReadySchema,
  OpenApiDocumentSchema,
  StartedSchema,
  StartingSchema,
  UnhealthyReportSchema,
  UnhealthySchema,
} from './discovery.schemas';
import type { OpenApiTag } from './openapi-merge';

export const DISCOVERY_PATHS = {
  categories: '/api/v1/categories',
  openapi: '/api/v1/openapi.json',
  docs: '/api/v1/docs',
} as const;

export const GATEWAY_TAGS: [OpenApiTag, ...OpenApiTag[]] = [
  { name: 'discovery', description: 'Live categories and this API description' },
  { name: 'probes', description: 'Liveness, readiness and health. Every service answers these at its root; through the gateway they describe the gateway' },
];

/** Public API routes ignore a credential unless it is invalid (401); rate limits and faults apply to all. */
const PUBLIC_ERRORS = [401];
const json = (description: string, schema: z.ZodType): ResponseConfig => ({ description, content: { 'application/json': { schema } } });

function registerDiscoveryOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: DISCOVERY_PATHS.categories,
    operationId: 'listCategories',
    summary: 'List live categories',
    description: 'Every category with at least one live catalog instance, sorted by id. Registrations and expiries show here within seconds.',
    tags: ['discovery'],
    security: [],
    request: { query: NoQuerySchema },
    responses: responses({ 200: { description: 'Live categories', schema: CategoryListSchema } }, [400, ...PUBLIC_ERRORS]),
  });
  registry.registerPath({
    method: 'get',
    path: DISCOVERY_PATHS.openapi,
    operationId: 'getOpenApiDocument',
    summary: 'This API description (OpenAPI 3.0)',
    description: 'One document for the whole public API: the gateway, the auth service and every live category.',
    tags: ['discovery'],
    security: [],
    request: { query: NoQuerySchema },
    responses: responses({ 200: { description: 'The OpenAPI document', schema: OpenApiDocumentSchema } }, [400, ...PUBLIC_ERRORS]),
  });
  registry.registerPath({
    method: 'get',
    path: DISCOVERY_PATHS.docs,
    operationId: 'getApiDocsPage',
    summary: 'Interactive API documentation',
    description: 'Swagger UI served by the gateway itself (no external host), with "try it out" against this origin.',
    tags: ['discovery'],
    security: [],
    request: { query: NoQuerySchema },
    responses: {
      200: { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } },
      ...responses({}, [400, ...PUBLIC_ERRORS]),
    },
  });
}

function registerProbes(registry: OpenAPIRegistry): void {
  const probe = (path: string, operationId: string, summary: string, description: string, results: Record<number, ResponseConfig>) =>
    registry.registerPath({ method: 'get', path, operationId, summary, description, tags: ['probes'], security: [], responses: results });

  probe('/livez', 'getLiveness', 'Liveness probe', 'Checks the process only.', { 200: json('The process is alive', LivenessSchema) });
  probe('/readyz', 'getReadiness', 'Readiness probe', 'Pings the service database (1 s timeout); 503 while starting or shutting down.', {
    200: json('Ready to serve', HealthySchema),
    503: json('The database is unreachable, or the service is starting or shutting down', NotReadySchema),
  });
  probe('/healthz', 'getHealthProbe', 'Health probe', 'Pings the service database (1 s timeout).', {
    200: json('The database answers', HealthySchema),
    503: json('The database is unreachable', UnhealthySchema),
  });
  probe('/startupz', 'getStartup', 'Start-up probe', 'Start-up finished: stores connected, indexes ensured, registered.', {
    200: json('Started', StartedSchema),
    503: json('Still starting', StartingSchema),
  });
  probe('/health', 'getHealth', 'Health report', 'Like /healthz, plus the service name, version and uptime; on the gateway also each upstream.', {
    200: json('Healthy', HealthReportSchema),
    503: json('The database is unreachable', UnhealthyReportSchema),
  });
}

/** The gateway's own operations and the probes, generated from the schemas that validate them. */
export function gatewayFragment(): OpenApiFragment {
  const registry = new OpenAPIRegistry();
  registerBearerAuth(registry);
  registerDiscoveryOperations(registry);
  registerProbes(registry);
  return generateFragment(registry);
}
