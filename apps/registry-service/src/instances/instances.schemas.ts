import { CategoryRecordSchema, InstanceRegistrationSchema, z } from '@mt/contracts';

/** Instance ids chosen by the instances themselves (e.g. `movies-host-1234-ab12`): 1-128 safe characters. */
export const INSTANCE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * Category ids that would shadow the gateway's own public routes (/api/v1/auth, /api/v1/categories,
 * /api/v1/docs), so a catalog can never capture them.
 */
export const RESERVED_CATEGORY_IDS: readonly string[] = ['auth', 'categories', 'docs'];

export const InstanceParamsSchema = z.strictObject({
  instanceId: z.string().regex(INSTANCE_ID_PATTERN, 'must be 1-128 characters of A-Z a-z 0-9 . _ : - (starting alphanumeric)'),
});

/**
 * The registration body: the shared contract, with the category record checked strictly and held to
 * API.md §4 (`name == id`, `endpoint == /api/v1/{id}`), and the fragment's paths confined to the
 * category's own prefix so one catalog cannot document (or shadow) another's routes.
 */
const namedObjects = () => z.record(z.string(), z.record(z.string(), z.unknown()));

export const RegistrationBodySchema = InstanceRegistrationSchema.extend({
  category: CategoryRecordSchema.strict(),
  // Path items and component sections are objects in OpenAPI; anything else would break the merged document.
  openapi: z.strictObject({ paths: namedObjects(), components: namedObjects() }),
}).superRefine((registration, ctx) => {
  const { id, name, endpoint } = registration.category;
  const prefix = `/api/v1/${id}`;
  if (RESERVED_CATEGORY_IDS.includes(id)) {
    ctx.addIssue({ code: 'custom', path: ['category', 'id'], message: `'${id}' is reserved by the gateway` });
  }
  if (name !== id) ctx.addIssue({ code: 'custom', path: ['category', 'name'], message: 'must equal category.id' });
  if (endpoint !== prefix) ctx.addIssue({ code: 'custom', path: ['category', 'endpoint'], message: `must be ${prefix}` });
  for (const path of Object.keys(registration.openapi.paths)) {
    if (path !== prefix && !path.startsWith(`${prefix}/`)) {
      ctx.addIssue({ code: 'custom', path: ['openapi', 'paths', path], message: `must be under ${prefix}` });
    }
  }
});

/** Heartbeats carry no body; anything sent is an unknown field. */
export const HeartbeatBodySchema = z.strictObject({});
