import { finishHttpApp, createHttpApp } from '@mt/http';
import type { Logger } from '@mt/logging';
import type { Lifecycle } from '@mt/probes';
import { pingRedis, type Redis } from '@mt/stores';
import type { Express } from 'express';
import type { RegistryConfig } from './config';

export interface RegistryDeps {
  config: RegistryConfig;
  logger: Logger;
  lifecycle: Lifecycle;
  redis: Redis;
}

export function createApp({ config, logger, lifecycle, redis }: RegistryDeps): Express {
  const app = createHttpApp({
    logger,
    probes: { service: 'registry-service', version: config.SERVICE_VERSION, lifecycle, pingDatabase: () => pingRedis(redis) },
  });
  return finishHttpApp(app, logger);
}
