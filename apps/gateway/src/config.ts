import { baseEnvShape, envBool, envInt, envList, envUrl, internalSecretShape, loadConfig, redisEnvShape } from '@mt/config';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { imageSources, providersEnvShape, type ImageSources } from '@mt/providers';
import { z } from 'zod';
import { MAX_IMAGE_BYTES } from './images/image-limits';

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
  /** Where `/api/v1/images/…` keeps the images it fetched; rebuilt from its files after a restart. One gateway process per directory. */
  IMAGE_CACHE_DIR: z.string().min(1).default(path.join(tmpdir(), 'media-tracker', 'image-cache')),
  /** The image cache's bound on disk (least recently used evicted first); at least the largest image served. */
  IMAGE_CACHE_MAX_BYTES: envInt(256 * 1024 * 1024, MAX_IMAGE_BYTES, 1024 * 1024 * 1024 * 1024),
  /** The most requested images' bytes also kept in memory (least recently used evicted first); 0 serves every image from disk. */
  IMAGE_MEMORY_CACHE_BYTES: envInt(32 * 1024 * 1024, 0, 4 * 1024 * 1024 * 1024),
  /** The deadline of one image download from a provider's image host (headers, body and redirects). */
  IMAGE_FETCH_TIMEOUT_MS: envInt(5_000, 100, 60_000),
  /**
   * Lets image hosts resolve to loopback, private and link-local addresses: only for a local replay server
   * (tests, an offline stack). Off, such an address is refused whatever the configured host name.
   */
  IMAGE_ALLOW_PRIVATE_HOSTS: envBool(false),
  // The metadata providers' settings, validated as the catalogs validate them: they decide which image hosts the
  // gateway serves (imageSources); named one by one so the deployment checks see every variable.
  TMDB_API_KEY: providersEnvShape.TMDB_API_KEY,
  TMDB_READ_TOKEN: providersEnvShape.TMDB_READ_TOKEN,
  TMDB_IMAGE_URL: providersEnvShape.TMDB_IMAGE_URL,
  OPENLIBRARY_ENABLED: providersEnvShape.OPENLIBRARY_ENABLED,
  OPENLIBRARY_COVERS_URL: providersEnvShape.OPENLIBRARY_COVERS_URL,
});

export type GatewayConfig = z.output<typeof gatewayConfigSchema> & {
  /** The image hosts `/api/v1/images/<provider>/…` may fetch from, derived from the provider settings. */
  imageHosts: ImageSources;
};

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const config = loadConfig(gatewayConfigSchema, env);
  return { ...config, imageHosts: imageSources(env) };
}
