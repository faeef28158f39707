import { SCOPES } from '@mt/tokens';
import { CategoryRecordSchema } from './category.schema';
import { RouteManifestSchema, SERVICE_ID_PATTERN } from './route-manifest';
import { z } from './zod';

/** Endpoints that services call on each other (never routed by the gateway). */
export const INTERNAL_PATHS = {
  /** auth-service: the JWT public keys (JWKS), public information. */
  jwks: '/internal/jwks',
  /** auth-service: PAT introspection (internal secret). */
  introspect: '/internal/introspect',
  /** auth-service: a user's JWT cut-off, for the gateway when Redis cannot answer (internal secret). */
  jwtCutoff: (userId: string) => `/internal/users/${encodeURIComponent(userId)}/jwt-cutoff`,
  /** registry-service: PUT register / DELETE deregister (internal secret). */
  registryInstance: (instanceId: string) => `/internal/instances/${encodeURIComponent(instanceId)}`,
  /** registry-service: POST heartbeat; 404 means "register again" (internal secret). */
  registryHeartbeat: (instanceId: string) => `/internal/instances/${encodeURIComponent(instanceId)}/heartbeat`,
  /** registry-service: the live route table (internal secret). */
  registryRoutes: '/internal/routes',
  /**
   * catalog-service: POST plays of an item for the signed identity (internal secret and a signed identity;
   * body: the public POST plays body with `source: "scrobble:<server>"`, optional `start_only: true`).
   */
  listPlays: (category: string, itemId: string) => `/internal/${category}/list/${encodeURIComponent(itemId)}/plays`,
  /** catalog-service: GET an episode by `external_id=tvdb:123` (or imdb:, tmdb:) or `show_id`, `season`, `number` (internal secret). */
  episodeLookup: (category: string) => `/internal/${category}/episodes/lookup`,
  /**
   * catalog-service: POST `{ title, year, external_ids }` of a work the catalog lacks; its provider's entry is
   * added, created by the signed identity (internal secret and a signed identity). `{ item_id: null }`: no provider finds it.
   */
  providerMatch: (category: string) => `/internal/${category}/providers/match`,
} as const;

export const IntrospectionRequestSchema = z.strictObject({ token: z.string().max(200) });

export const IntrospectionResultSchema = z.discriminatedUnion('active', [
  z.object({
    active: z.literal(true),
    user_id: z.string(),
    username: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    token_id: z.string(),
    expires_at: z.string(),
  }),
  z.object({ active: z.literal(false) }),
]);
export type IntrospectionResult = z.infer<typeof IntrospectionResultSchema>;

/**
 * GET jwt-cutoff answer: `exists: false` means the user is gone (reject every JWT); otherwise JWTs whose
 * `cutoff_ms` claim (the cut-off they were minted under, see JWT_CUTOFF_CLAIM) is below `cutoff_ms` are rejected.
 */
export const JwtCutoffSchema = z.object({ exists: z.boolean(), cutoff_ms: z.number().int().nullable() });
export type JwtCutoff = z.infer<typeof JwtCutoffSchema>;

/**
 * The gateway caches an introspected PAT for at most this long (and never past its expiry). Kept at one
 * minute so that introspection — which writes `last_used_at` — happens about once a minute per token.
 */
export const PAT_CACHE_TTL_SECONDS = 60;
/** Invalid introspection results are cached only briefly. */
export const PAT_INVALID_CACHE_TTL_SECONDS = 10;

/** JWKS of the auth service (RFC 7517), EC P-256 keys for ES256. */
export interface Jwks {
  keys: Array<{ kty: 'EC'; crv: 'P-256'; x: string; y: string; kid: string; alg: 'ES256'; use: 'sig' }>;
}

/** JWT settings shared by the signer (auth) and the verifier (gateway). */
export const JWT_ALGORITHM = 'ES256';

/** An OpenAPI fragment as handed over in a registration: path items and component sections are objects. */
export const OpenApiFragmentSchema = z.strictObject({
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.record(z.string(), z.record(z.string(), z.unknown())),
  tags: z.array(z.strictObject({ name: z.string().min(1).max(100), description: z.string().max(1000) })).max(20).optional(),
});

/**
 * A service instance's registration (PUT /internal/instances/{id}): the service it belongs to (its URL
 * segment under /api/v1), its category record when it is a catalog, where to reach it, and what it
 * serves — the route manifest the gateway routes by and the OpenAPI fragment the gateway documents.
 */
export const InstanceRegistrationSchema = z.strictObject({
  service: z.string().regex(SERVICE_ID_PATTERN),
  category: CategoryRecordSchema.strict().optional(),
  base_url: z.url({ protocol: /^https?$/ }),
  version: z.string().min(1).max(50),
  manifest: RouteManifestSchema,
  openapi: OpenApiFragmentSchema,
});
export type InstanceRegistration = z.infer<typeof InstanceRegistrationSchema>;

export const LiveInstanceSchema = z.object({
  instance_id: z.string(),
  base_url: z.string(),
  version: z.string(),
  manifest_digest: z.string(),
});
export type LiveInstance = z.infer<typeof LiveInstanceSchema>;

/**
 * One service in the route table. A service stays listed after its last instance has gone (with no
 * instances), so its routes answer 503 rather than 404 and its operations stay in the OpenAPI document
 * while it restarts. `manifest_mismatch` is true when its live instances disagree on their manifest.
 */
export const RoutedServiceSchema = z.object({
  service: z.string(),
  category: CategoryRecordSchema.optional(),
  instances: z.array(LiveInstanceSchema),
  manifest: RouteManifestSchema,
  openapi: OpenApiFragmentSchema,
  manifest_mismatch: z.boolean(),
});
export type RoutedService = z.infer<typeof RoutedServiceSchema>;

/** GET /internal/routes: every known service (sorted by id) with its live instances. */
export const RouteTableSchema = z.object({ services: z.array(RoutedServiceSchema) });
export type RouteTableSnapshot = z.infer<typeof RouteTableSchema>;

/** The `user.deleted` stream entry (fields of XADD). */
export const USER_DELETED = 'user.deleted';
export interface UserDeletedEvent {
  type: typeof USER_DELETED;
  user_id: string;
  occurred_at: string;
}

/** Registry timing (ARCHITECTURE.md): beat every 10 s, gone after 3 missed beats. */
export const HEARTBEAT_INTERVAL_MS = 10_000;
export const INSTANCE_TTL_MS = 30_000;
