import { finishHttpApp, createHttpApp } from '@mt/http';
import type { Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import type { Lifecycle } from '@mt/probes';
import { pingRedis, type Redis } from '@mt/stores';
import type { Express } from 'express';
import type { RegistryConfig } from './config';

export interface RegistryDeps {
  config: RegistryConfig;
  logger: Logger;
  lifecycle: Lifecycle;
  redis: Redis;
  metrics: Metrics;
}

export function createApp({ config, logger, lifecycle, redis, metrics }: RegistryDeps): Express {
  const app = createHttpApp({
    logger,
    metrics,
    probes: { service: 'registry-service', version: config.SERVICE_VERSION, lifecycle, pingDatabase: () => pingRedis(redis) },
  });
  return finishHttpApp(app, logger);
}
