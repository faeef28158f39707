import { z } from 'zod';
import { envInt, envPort, envUrl } from './env-types';

/** Variables every service reads. */
export const baseEnvShape = (defaultPort: number) => ({
  PORT: envPort(defaultPort),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SERVICE_VERSION: z.string().default('1.0.0'),
  /** How long SIGTERM waits for in-flight requests before closing them. */
  SHUTDOWN_TIMEOUT_MS: envInt(8000, 0, 60000),
  /** A request's headers and body must arrive within this time from its first byte (then 408). */
  REQUEST_TIMEOUT_MS: envInt(30_000, 1000, 600_000),
});

export const mongoEnvShape = {
  MONGO_URL: envUrl(['mongodb:', 'mongodb+srv:']).default('mongodb://127.0.0.1:27017'),
};

export const redisEnvShape = {
  REDIS_URL: envUrl(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  /** Namespace of every Redis key, channel and stream, so several stacks (or test files) share one Redis. */
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1-64 of A-Z a-z 0-9 : _ -').default('mt:'),
};

/** Shared secret for signed identity headers and internal endpoints; required, never defaulted. */
export const internalSecretShape = {
  INTERNAL_SECRET: z
    .string({ message: 'is required (a random string of at least 32 characters)' })
    .min(32, 'must be at least 32 characters'),
};
