import { z } from './zod';

/** Methods an endpoint can be declared with (HEAD follows GET). */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Every public API path lives under this prefix; its first segment after it names the owning service. */
export const API_PREFIX = '/api/v1';

/** A service's URL segment under /api/v1 (`auth`, `movies`, ...): also its registry key. */
export const SERVICE_ID_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/** `/api/v1/movies/list/{item_id}`: literal segments and `{name}` parameters, nothing else. */
const PATH_TEMPLATE = /^\/api\/v1(\/([A-Za-z0-9._~-]+|\{[a-z_][a-z0-9_]*\}))+$/;

/** Who may call an endpoint: anyone, or a caller holding a PAT scope (a JWT holds every scope its role allows). */
export const RouteAccessSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('public') }),
  z.strictObject({ kind: z.literal('scope'), scope: z.string().regex(/^[a-z]+:?[a-z]*$/).max(64) }),
]);
export type RouteAccess = z.infer<typeof RouteAccessSchema>;

export const ManifestRouteSchema = z.strictObject({
  method: z.enum(HTTP_METHODS),
  path: z.string().max(300).regex(PATH_TEMPLATE, 'must be /api/v1/... made of literal segments and {param} segments'),
  access: RouteAccessSchema,
  /** Largest request body the service accepts on this route, in bytes (the gateway enforces it first). */
  body_limit: z.number().int().min(0).max(64 * 1024 * 1024),
});
export type ManifestRoute = z.infer<typeof ManifestRouteSchema>;

/**
 * What a service tells the gateway about its public endpoints, derived from its endpoint declarations:
 * the gateway builds routing, 404/405, access and body limits from these alone. `digest` identifies the
 * route set, so instances of one service that disagree can be told apart.
 */
export const RouteManifestSchema = z.strictObject({
  digest: z.string().regex(/^[0-9a-f]{16,64}$/),
  routes: z.array(ManifestRouteSchema).max(500),
});
export type RouteManifest = z.infer<typeof RouteManifestSchema>;
