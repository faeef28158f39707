import { baseEnvShape, envInt, internalSecretShape, loadConfig, mongoEnvShape, redisEnvShape, registrationEnvShape, withRegistrationDefaults } from '@mt/config';
import { z } from 'zod';
import { getCategory, knownCategoryIds, loadCategoryModule } from '../domain/categories';
import path from 'node:path';
import { STORE_PROFILES } from '../data/store-profile/store-profile';
import { DEFAULT_IMPORT_UPLOADS_AT_ONCE } from '../features/list-import/upload-admission';
import { providersEnvShape } from '@mt/providers';
import { PROVIDER_SEARCH_LIMITS } from '../domain/provider-search-limits';

const optionalPort = z
  .string()
  .regex(/^\d+$/, 'must be a non-negative integer')
  .transform(Number)
  .pipe(z.number().int().min(0).max(65535))
  .optional();

const catalogEnvSchema = z
  .object({
    ...baseEnvShape(0),
    ...mongoEnvShape,
    ...redisEnvShape,
    ...internalSecretShape,
    ...registrationEnvShape,
    /** A CommonJS module exporting extra category definitions (see categories.ts); declared before CATEGORY, so loaded first. */
    CATEGORY_MODULE: z
      .string()
      .min(1)
      .optional()
      .superRefine((modulePath, ctx) => {
        if (!modulePath) return;
        try {
          loadCategoryModule(path.resolve(modulePath));
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: `could not be loaded: ${(error as Error).message}` });
        }
      }),
    /** Which category this instance serves. */
    CATEGORY: z
      .string({ error: () => `is required and must be one of: ${knownCategoryIds().join(', ')}` })
      .refine((id) => knownCategoryIds().includes(id), { error: () => `must be one of: ${knownCategoryIds().join(', ')}` }),
    /** Default depends on the category (movies 3011, tvshows 3012, books 3013). */
    PORT: optionalPort,
    /** Default `catalog_<category>`: each category in its own database. */
    MONGO_DB_NAME: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/, 'must be 1-63 of A-Z a-z 0-9 _ -').optional(),
    /** An account event left unacknowledged this long by another (crashed) consumer is taken over. */
    EVENTS_CLAIM_IDLE_MS: envInt(60_000, 10, 86_400_000),
    /** How long one blocking read of the event stream waits for new events. */
    EVENTS_BLOCK_MS: envInt(5000, 10, 60_000),
    /** Import jobs this instance runs at once. */
    IMPORT_CONCURRENCY: envInt(2, 1, 16),
    /** A running import whose instance stopped renewing its queue lock this long ago (a crash) is resumed by another. */
    IMPORT_LOCK_MS: envInt(30_000, 1000, 600_000),
    /** `mongodb`, `sorting` (DocumentDB, FerretDB), or `auto`: probe the connected server at start-up. */
    STORE_PROFILE: z.enum(['auto', ...STORE_PROFILES]).default('auto'),
    /** Import uploads this instance reads and validates at once (a further one is a 503 with Retry-After). */
    IMPORT_UPLOADS_AT_ONCE: envInt(DEFAULT_IMPORT_UPLOADS_AT_ONCE, 1, 64),
    // TMDB (with a key or read token) and Open Library (unless turned off), and where they are (docs/operations.md
    // "Metadata providers"); named one by one so the deployment checks see every variable.
    TMDB_API_KEY: providersEnvShape.TMDB_API_KEY,
    TMDB_READ_TOKEN: providersEnvShape.TMDB_READ_TOKEN,
    TMDB_API_URL: providersEnvShape.TMDB_API_URL,
    TMDB_IMAGE_URL: providersEnvShape.TMDB_IMAGE_URL,
    OPENLIBRARY_ENABLED: providersEnvShape.OPENLIBRARY_ENABLED,
    OPENLIBRARY_URL: providersEnvShape.OPENLIBRARY_URL,
    OPENLIBRARY_COVERS_URL: providersEnvShape.OPENLIBRARY_COVERS_URL,
    /** Provider searches one user may make per minute in this category (a 31st is a 429). */
    PROVIDER_SEARCHES_PER_MINUTE: envInt(PROVIDER_SEARCH_LIMITS.searches, 1, 1_000_000_000),
  })
  .superRefine((env, ctx) => {
    if (env.PORT === 0 && env.ADVERTISED_URL === undefined) {
      ctx.addIssue({ code: 'custom', path: ['ADVERTISED_URL'], message: 'is required when PORT is 0 (a random port)' });
    }
  })
  .transform((env) => {
    const category = getCategory(env.CATEGORY);
    const port = env.PORT ?? category.defaultPort;
    return { ...withRegistrationDefaults(env, category.id, port), PORT: port, MONGO_DB_NAME: env.MONGO_DB_NAME ?? `catalog_${category.id}` };
  });

export type CatalogConfig = z.output<typeof catalogEnvSchema>;

/** Fails (ConfigError naming every bad variable) before anything starts; a bad CATEGORY names the valid ones. */
export const loadCatalogConfig = (env: NodeJS.ProcessEnv = process.env): CatalogConfig => loadConfig(catalogEnvSchema, env);
