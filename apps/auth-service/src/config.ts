import { baseEnvShape, envInt, internalSecretShape, loadConfig, mongoEnvShape, redisEnvShape, registrationEnvShape, withRegistrationDefaults } from '@mt/config';
import { availableParallelism } from 'node:os';
import { z } from 'zod';

/** OWASP's minimum for argon2id (m = 19 MiB, t = 2, p = 1); configuration may only go stronger. */
export const ARGON2_MIN_MEMORY_KIB = 19_456;
export const ARGON2_MIN_TIME_COST = 2;

/** Every core but one, at least one (see ARGON2_CONCURRENCY). */
export function defaultHashConcurrency(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

export const authConfigSchema = z.object({
  ...baseEnvShape(3001),
  ...mongoEnvShape,
  MONGO_DB_NAME: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/, 'must be 1-63 of A-Z a-z 0-9 _ -').default('auth'),
  ...redisEnvShape,
  ...internalSecretShape,
  ...registrationEnvShape,
  /** ES256 private key (PEM, `\n` escapes allowed) or a file holding it; neither → a generated key in JWT_KEY_DIR. */
  JWT_PRIVATE_KEY: z.string().optional(),
  JWT_PRIVATE_KEY_FILE: z.string().optional(),
  /** The previous public key (PEM or file), still published in the JWKS during a key rotation. */
  JWT_PREVIOUS_PUBLIC_KEY: z.string().optional(),
  JWT_PREVIOUS_PUBLIC_KEY_FILE: z.string().optional(),
  JWT_KEY_DIR: z.string().default('.data/auth-keys'),
  JWT_ISSUER: z.string().min(1).default('media-tracker'),
  JWT_AUDIENCE: z.string().min(1).default('media-tracker-api'),
  /** Capped at a day: cut-offs are re-mirrored from records kept at least that long. */
  JWT_TTL_SECONDS: envInt(3600, 60, 86_400),
  ARGON2_MEMORY_KIB: envInt(ARGON2_MIN_MEMORY_KIB, ARGON2_MIN_MEMORY_KIB, 4_194_304),
  ARGON2_TIME_COST: envInt(ARGON2_MIN_TIME_COST, ARGON2_MIN_TIME_COST, 20),
  /**
   * Hashes computed at once; also bounded by libuv's thread pool (UV_THREADPOOL_SIZE, 4). By default every
   * core but one: that one stays for the event loop (probes, token checks) during a login storm.
   */
  ARGON2_CONCURRENCY: envInt(defaultHashConcurrency(), 1, 256),
  /**
   * Usernames (comma-separated, case-insensitive) that are admins (docs/api.md "Authentication"): they get the role when they
   * register or log in. Empty: no admin, so no one can grant roles.
   */
  ADMIN_USERNAMES: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((name) => name.trim().toLowerCase()).filter(Boolean)),
  /** How often the outbox relay looks for changes not yet published to Redis. */
  OUTBOX_RELAY_INTERVAL_MS: envInt(1000, 50, 60_000),
})
  .refine((env) => !(env.JWT_PRIVATE_KEY && env.JWT_PRIVATE_KEY_FILE), {
    message: 'set JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE, not both',
    path: ['JWT_PRIVATE_KEY'],
  })
  .refine((env) => !(env.JWT_PREVIOUS_PUBLIC_KEY && env.JWT_PREVIOUS_PUBLIC_KEY_FILE), {
    message: 'set JWT_PREVIOUS_PUBLIC_KEY or JWT_PREVIOUS_PUBLIC_KEY_FILE, not both',
    path: ['JWT_PREVIOUS_PUBLIC_KEY'],
  })
  .transform((env) => withRegistrationDefaults(env, 'auth', env.PORT));

export type AuthConfig = z.output<typeof authConfigSchema>;

export const loadAuthConfig = (env: NodeJS.ProcessEnv = process.env): AuthConfig => loadConfig(authConfigSchema, env);
