import { API_PREFIX, InstanceRegistrationSchema, SERVICE_ID_PATTERN, z } from '@mt/contracts';

/** Instance ids chosen by the instances themselves (e.g. `movies-host-1234-ab12`): 1-128 safe characters. */
export const INSTANCE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Segments the gateway serves itself (/api/v1/categories, /openapi.json, /docs): no service may take them. */
export const RESERVED_SERVICE_IDS: readonly string[] = ['categories', 'docs'];

/** Category ids that would capture another kind of service's segment. */
export const RESERVED_CATEGORY_IDS: readonly string[] = ['auth'];

export const InstanceParamsSchema = z.strictObject({
  instance_id: z.string().regex(INSTANCE_ID_PATTERN, 'must be 1-128 characters of A-Z a-z 0-9 . _ : - (starting alphanumeric)'),
});

export const ServiceParamsSchema = z.strictObject({ service: z.string().regex(SERVICE_ID_PATTERN, 'must be a service id') });

const underPrefix = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * The registration body: the shared contract, held to docs/api.md "Discovering the API" when it is a category (`name == id`,
 * `endpoint == /api/v1/{id}`), with every route of the manifest and every documented path confined to the
 * service's own segment, so one service can neither route nor document (nor shadow) another's paths.
 */
export const RegistrationBodySchema = InstanceRegistrationSchema.superRefine((registration, ctx) => {
  const { service, category } = registration;
  const prefix = `${API_PREFIX}/${service}`;
  if (RESERVED_SERVICE_IDS.includes(service)) ctx.addIssue({ code: 'custom', path: ['service'], message: `'${service}' is reserved by the gateway` });
  if (category) {
    if (category.id !== service) ctx.addIssue({ code: 'custom', path: ['category', 'id'], message: 'must equal service' });
    if (RESERVED_CATEGORY_IDS.includes(category.id)) ctx.addIssue({ code: 'custom', path: ['category', 'id'], message: `'${category.id}' is reserved` });
    if (category.name !== category.id) ctx.addIssue({ code: 'custom', path: ['category', 'name'], message: 'must equal category.id' });
    if (category.endpoint !== prefix) ctx.addIssue({ code: 'custom', path: ['category', 'endpoint'], message: `must be ${prefix}` });
  }
  registration.manifest.routes.forEach((route, index) => {
    if (!underPrefix(route.path, prefix)) ctx.addIssue({ code: 'custom', path: ['manifest', 'routes', index, 'path'], message: `must be under ${prefix}` });
  });
  for (const path of Object.keys(registration.openapi.paths)) {
    if (!underPrefix(path, prefix)) ctx.addIssue({ code: 'custom', path: ['openapi', 'paths', path], message: `must be under ${prefix}` });
  }
});

/** Heartbeats carry no body; anything sent is an unknown field. */
export const HeartbeatBodySchema = z.strictObject({});

export const RegisteredSchema = z.object({ instance_id: z.string(), ttl_ms: z.number().int() });
