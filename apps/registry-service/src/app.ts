import { redisKeys } from '@mt/contracts';
import { finishHttpApp, createHttpApp } from '@mt/http';
import { requireInternalSecret } from '@mt/identity';
import type { Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import type { Lifecycle } from '@mt/probes';
import { pingRedis, type Redis } from '@mt/stores';
import type { Express } from 'express';
import type { RegistryConfig } from './config';
import { createInstancesRepository } from './instances/instances.repository';
import { createInstancesRouter } from './instances/instances.routes';
import { createInstancesService, type InstancesService } from './instances/instances.service';

export interface RegistryDeps {
  config: RegistryConfig;
  logger: Logger;
  lifecycle: Lifecycle;
  redis: Redis;
  metrics: Metrics;
}

export function createInstances({ config, logger, redis }: Pick<RegistryDeps, 'config' | 'logger' | 'redis'>): InstancesService {
  const repository = createInstancesRepository(redis, redisKeys(config.REDIS_KEY_PREFIX));
  return createInstancesService({ repository, ttlMs: config.INSTANCE_TTL_MS, logger });
}

export function createApp(deps: RegistryDeps): Express {
  const { config, logger, lifecycle, redis, metrics } = deps;
  const app = createHttpApp({
    logger,
    metrics,
    probes: { service: 'registry-service', version: config.SERVICE_VERSION, lifecycle, pingDatabase: () => pingRedis(redis) },
  });
  // Every registry endpoint is internal: writes would let anyone route traffic, reads expose the topology.
  app.use('/internal', requireInternalSecret(config.INTERNAL_SECRET));
  app.use(createInstancesRouter(createInstances(deps)));
  return finishHttpApp(app, logger);
}
