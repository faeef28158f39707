import { baseEnvShape, envInt, envList, envUrl, internalSecretShape, loadConfig, redisEnvShape } from '@mt/config';
import { z } from 'zod';

const upstreamUrl = (defaultUrl: string) =>
  envUrl(['http:', 'https:'])
    .default(defaultUrl)
    // Paths are appended to it ("{AUTH_URL}/internal/jwks"), so a trailing slash would double up.
    .transform((value) => value.replace(/\/+$/, ''));

/** `*` or exact origins (`https://app.example.com`): anything else is a typo that would silently never match. */
const corsOrigins = envList([]).refine(
  (origins) =>
    origins.every((origin) => {
      if (origin === '*') return true;
      try {
        return new URL(origin).origin === origin;
      } catch {
        return false;
      }
    }),
  'must be a comma-separated list of origins like https://app.example.com (scheme://host[:port], no path), or *',
);

/**
 * Express's `trust proxy`: `false` (default: the client is the TCP peer, X-Forwarded-For is ignored),
 * `true` (trust every hop — only behind a proxy that overwrites the header), a hop count, or a
 * comma-separated list of addresses/subnets/`loopback`/`linklocal`/`uniquelocal`.
 */
export type TrustProxy = boolean | number | string[];
const trustProxy = z
  .string()
  .default('false')
  .transform((value): TrustProxy => {
    const text = value.trim().toLowerCase();
    if (text === 'false' || text === '0') return false;
    if (text === 'true') return true;
    if (/^\d+$/.test(text)) return Number(text);
    return text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  });

export const gatewayConfigSchema = z.object({
  ...baseEnvShape(8080),
  ...redisEnvShape,
  ...internalSecretShape,
  AUTH_URL: upstreamUrl('http://127.0.0.1:3001'),
  REGISTRY_URL: upstreamUrl('http://127.0.0.1:3002'),
  CORS_ORIGINS: corsOrigins,
  /** Requests per minute per user (authenticated) or per client IP (anonymous); 0 disables the limit. */
  RATE_LIMIT_PER_MINUTE: envInt(1200, 0, 10_000_000),
  /** Upstream deadline for the response headers, and the idle limit of an upstream socket. */
  PROXY_TIMEOUT_MS: envInt(10_000, 100, 600_000),
  /** Each category's deadline inside one aggregate request (`/api/v1/home`, `/api/v1/search`): a slower one is reported as unavailable. */
  AGGREGATE_TIMEOUT_MS: envInt(3_000, 100, 60_000),
  TRUST_PROXY: trustProxy,
  JWT_ISSUER: z.string().min(1).default('media-tracker'),
  JWT_AUDIENCE: z.string().min(1).default('media-tracker-api'),
  /** Answers to `Idempotency-Key` requests one caller may have stored at once; beyond, its oldest are forgotten. */
  IDEMPOTENCY_MAX_ANSWERS: envInt(1000, 1, 1_000_000),
  /** Bytes of stored answers one caller may have at once (same rule). */
  IDEMPOTENCY_MAX_BYTES: envInt(1024 * 1024, 64 * 1024, 1024 * 1024 * 1024),
  /**
   * Request body bytes this gateway may hold at once to fingerprint `Idempotency-Key` requests (503 beyond);
   * at least the largest body a route accepts, so every body can fit.
   */
  IDEMPOTENCY_BUFFER_BYTES: envInt(32 * 1024 * 1024, 16 * 1024 * 1024, 4 * 1024 * 1024 * 1024),
  /** The built web app (`index.html` + `assets/`); default: `../web` beside the bundle that runs it (dist/apps/gateway or dist/apps/all-in-one). */
  WEB_DIR: z.string().min(1).optional(),
});

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env): GatewayConfig =>
  loadConfig(gatewayConfigSchema, env);
