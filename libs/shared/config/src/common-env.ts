import { hostname } from 'node:os';
import { z } from 'zod';
import { envInt, envPort, envUrl } from './env-types';
import { parseRedisTarget } from './redis-target';

/** The default operator port of every service (each runs in its own container or pod). */
export const DEFAULT_METRICS_PORT = 9464;

/** Shorter shared secrets are refused by every service (and by the launcher). */
export const INTERNAL_SECRET_MIN_LENGTH = 32;

/** Variables every service reads. */
export const baseEnvShape = (defaultPort: number) => ({
  PORT: envPort(defaultPort),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SERVICE_VERSION: z.string().default('1.0.0'),
  /** How long SIGTERM waits for in-flight requests before closing them. */
  SHUTDOWN_TIMEOUT_MS: envInt(8000, 0, 60000),
  /**
   * The operator port (Prometheus' convention for exporters): GET /metrics and the detailed GET /health, never
   * published beside the API. 0 = a free port.
   */
  METRICS_PORT: envPort(DEFAULT_METRICS_PORT),
  /** A request's headers and body must arrive within this time from its first byte (then 408). */
  REQUEST_TIMEOUT_MS: envInt(30_000, 1000, 600_000),
});

export const mongoEnvShape = {
  MONGO_URL: envUrl(['mongodb:', 'mongodb+srv:']).default('mongodb://127.0.0.1:27017'),
};

export const redisEnvShape = {
  /** One server (`redis://`, `rediss://`) or a Redis Cluster (`redis+cluster://host:port,…`; REDIS_CLUSTER_NODES). */
  REDIS_URL: z
    .string()
    .superRefine((value, context) => {
      try {
        parseRedisTarget(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
      }
    })
    .default('redis://127.0.0.1:6379'),
  /** Namespace of every Redis key, channel and stream, so several stacks (or test files) share one Redis. */
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1-64 of A-Z a-z 0-9 : _ -').default('mt:'),
};

/** Shared secret for signed identity headers and internal endpoints; required, never defaulted. */
export const internalSecretShape = {
  INTERNAL_SECRET: z
    .string({ message: 'is required (a random string of at least 32 characters)' })
    .min(INTERNAL_SECRET_MIN_LENGTH, `must be at least ${INTERNAL_SECRET_MIN_LENGTH} characters`),
};

const INSTANCE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Variables of a service that registers with the registry (catalog instances, the auth service). */
export const registrationEnvShape = {
  REGISTRY_URL: envUrl(['http:', 'https:']).default('http://127.0.0.1:3002'),
  /** Registry key of this instance; default `<service>-<hostname>-<pid>`. */
  INSTANCE_ID: z.string().regex(INSTANCE_ID, 'must be 1-128 of A-Z a-z 0-9 . _ : -').optional(),
  /** The base URL the gateway uses to reach this instance; default `http://127.0.0.1:<PORT>`. */
  ADVERTISED_URL: envUrl(['http:', 'https:']).optional(),
  /** Registry heartbeat period (the registry forgets an instance after 30 s without one). */
  REGISTRY_HEARTBEAT_MS: envInt(10_000, 100, 20_000),
};

/** Fills in the registration defaults once the service and its port are known. */
export function withRegistrationDefaults<E extends { INSTANCE_ID?: string; ADVERTISED_URL?: string }>(env: E, service: string, port: number) {
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 80) || 'host';
  return {
    ...env,
    INSTANCE_ID: env.INSTANCE_ID ?? `${service}-${host}-${process.pid}`,
    ADVERTISED_URL: (env.ADVERTISED_URL ?? `http://127.0.0.1:${port}`).replace(/\/+$/, ''),
  };
}
