import { baseEnvShape, envInt, envUrl, internalSecretShape, loadConfig, mongoEnvShape, redisEnvShape, registrationEnvShape, withRegistrationDefaults } from '@mt/config';
import { z } from 'zod';

export const SCROBBLE_DEFAULT_PORT = 3020;

const scrobbleEnvSchema = z
  .object({
    ...baseEnvShape(SCROBBLE_DEFAULT_PORT),
    ...mongoEnvShape,
    MONGO_DB_NAME: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/, 'must be 1-63 of A-Z a-z 0-9 _ -').default('scrobble'),
    ...redisEnvShape,
    ...internalSecretShape,
    ...registrationEnvShape,
    /** Where media servers reach this deployment (hook URLs are built on it); default: the origin of the request creating the hook. */
    PUBLIC_URL: envUrl(['http:', 'https:']).optional(),
    /** Events one hook may send per minute (then 429). */
    HOOK_EVENTS_PER_MINUTE: envInt(600, 1, 1_000_000),
    /** Events this instance matches and records at once. */
    SCROBBLE_CONCURRENCY: envInt(8, 1, 64),
    /** An event whose instance stopped renewing its queue lock this long ago (a crash) is run by another. */
    SCROBBLE_LOCK_MS: envInt(10_000, 1000, 600_000),
    /** How long a failing metadata provider is waited out before an event it would have matched goes to the inbox. */
    PROVIDER_PATIENCE_MS: envInt(3_600_000, 1000, 7 * 24 * 3_600_000),
    /** How often events still pending are queued again (their job was lost or gave up). */
    PENDING_SWEEP_MS: envInt(30_000, 100, 3_600_000),
    /** An account event left unacknowledged this long by another (crashed) consumer is taken over. */
    EVENTS_CLAIM_IDLE_MS: envInt(60_000, 10, 86_400_000),
    /** How long one blocking read of the account event stream waits. */
    EVENTS_BLOCK_MS: envInt(5000, 10, 60_000),
  })
  .transform((env) => withRegistrationDefaults(env, 'scrobble', env.PORT));

export type ScrobbleConfig = z.output<typeof scrobbleEnvSchema>;

export const loadScrobbleConfig = (env: NodeJS.ProcessEnv = process.env): ScrobbleConfig => loadConfig(scrobbleEnvSchema, env);
