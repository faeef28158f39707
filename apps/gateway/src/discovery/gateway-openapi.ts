import { OpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { generateFragment, registerBearerAuth, type OpenApiFragment, type z } from '@mt/contracts';
import { operationResponses, registerEndpoints, registerResponseHeaders, type EndpointGroup } from '@mt/endpoints';
import {
  HealthReportSchema,
  HealthySchema,
  LivenessSchema,
  NotReadySchema,
  StartedSchema,
  StartingSchema,
  UnhealthyReportSchema,
  UnhealthySchema,
} from './discovery.schemas';
import { IMAGES_TAG, registerImagesOperation } from '../images/images-openapi';

const PROBES_TAG = {
  name: 'probes',
  description: 'Liveness, readiness and health. Every service answers these at its root; through the gateway they describe the gateway',
};

const PROBE_HEADERS = { rateLimited: false };

/**
 * The probes are served by every service's probe router (libs/shared/probes), outside the endpoint
 * declarations; their operations are documented here, once, as the gateway answers them.
 */
function registerProbes(registry: OpenAPIRegistry): void {
  const probe = (path: string, name: string, summary: string, description: string, results: Record<number, { description: string; schema: z.ZodType }>) =>
    registry.registerPath({
      method: 'get',
      path,
      operationId: `probes${name}`,
      summary,
      description: `${description} Credentials are ignored; probes are never rate limited.`,
      tags: [PROBES_TAG.name],
      security: [],
      responses: operationResponses(results, [], PROBE_HEADERS) as Record<number, ResponseConfig>,
    });

  probe('/livez', 'GetLiveness', 'Liveness probe', 'Checks the process only.', { 200: { description: 'The process is alive', schema: LivenessSchema } });
  probe('/readyz', 'GetReadiness', 'Readiness probe', 'Pings the service database (1 s timeout); 503 while starting or shutting down.', {
    200: { description: 'Ready to serve', schema: HealthySchema },
    503: { description: 'The database is unreachable, or the service is starting or shutting down', schema: NotReadySchema },
  });
  probe('/healthz', 'GetHealth', 'Health probe', 'Pings the service database (1 s timeout).', {
    200: { description: 'The database answers', schema: HealthySchema },
    503: { description: 'The database is unreachable', schema: UnhealthySchema },
  });
  probe('/startupz', 'GetStartup', 'Start-up probe', 'Start-up finished: stores connected, indexes ensured, registered.', {
    200: { description: 'Started', schema: StartedSchema },
    503: { description: 'Still starting', schema: StartingSchema },
  });
  probe('/health', 'GetHealthReport', 'Health report', 'Like /healthz, plus the service name, version and uptime; on the gateway also the health of each upstream.', {
    200: { description: 'Healthy', schema: HealthReportSchema },
    503: { description: 'The database is unreachable', schema: UnhealthyReportSchema },
  });
}

/** The gateway's own operations (its endpoint declarations), the image route and the probes. */
export function gatewayFragment(groups: readonly EndpointGroup[]): OpenApiFragment {
  const registry = new OpenAPIRegistry();
  registerBearerAuth(registry);
  registerResponseHeaders(registry);
  for (const group of groups) registerEndpoints(registry, group);
  registerImagesOperation(registry);
  registerProbes(registry);
  return { ...generateFragment(registry), tags: [...groups.flatMap((group) => group.tags), IMAGES_TAG, PROBES_TAG] };
}
