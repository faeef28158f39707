import { baseEnvShape, internalSecretShape, loadConfig, redisEnvShape } from '@mt/config';
import { z } from 'zod';

export const registryConfigSchema = z.object({
  ...baseEnvShape(3002),
  ...redisEnvShape,
  ...internalSecretShape,
});

export type RegistryConfig = z.output<typeof registryConfigSchema>;

export const loadRegistryConfig = (env: NodeJS.ProcessEnv = process.env): RegistryConfig =>
  loadConfig(registryConfigSchema, env);
