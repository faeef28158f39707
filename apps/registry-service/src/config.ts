import { baseEnvShape, envInt, internalSecretShape, loadConfig, redisEnvShape } from '@mt/config';
import { INSTANCE_TTL_MS } from '@mt/contracts';
import { z } from 'zod';

export const registryConfigSchema = z.object({
  ...baseEnvShape(3002),
  ...redisEnvShape,
  ...internalSecretShape,
  /** An instance whose last registration or heartbeat is older than this is no longer live. */
  INSTANCE_TTL_MS: envInt(INSTANCE_TTL_MS, 500, 600_000),
  /** How often expired instances are removed (and the change published). */
  SWEEP_INTERVAL_MS: envInt(2000, 100, 60_000),
});

export type RegistryConfig = z.output<typeof registryConfigSchema>;

export const loadRegistryConfig = (env: NodeJS.ProcessEnv = process.env): RegistryConfig =>
  loadConfig(registryConfigSchema, env);
