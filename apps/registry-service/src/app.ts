import { redisKeys } from '@mt/contracts';
import { endpointRouter } from '@mt/endpoints';
import { createHttpApp, finishHttpApp } from '@mt/http';
import type { Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import type { Lifecycle } from '@mt/probes';
import { pingRedis, type Redis } from '@mt/stores';
import type { Express } from 'express';
import type { RegistryConfig } from './config';
import { instancesEndpoints } from './instances/instances.endpoints';
import { InstancesRepository } from './instances/instances.repository';
import { InstancesService } from './instances/instances.service';

export interface RegistryDeps {
  config: RegistryConfig;
  logger: Logger;
  lifecycle: Lifecycle;
  redis: Redis;
  metrics: Metrics;
  instances: InstancesService;
}

export function createInstances({ config, logger, redis }: Pick<RegistryDeps, 'config' | 'logger' | 'redis'>): InstancesService {
  const repository = new InstancesRepository(redis, redisKeys(config.REDIS_KEY_PREFIX));
  return new InstancesService({ repository, ttlMs: config.INSTANCE_TTL_MS, sweepIntervalMs: config.SWEEP_INTERVAL_MS, logger });
}

export function createApp(deps: RegistryDeps): Express {
  const { config, logger, lifecycle, redis, metrics, instances } = deps;
  const app = createHttpApp({
    logger,
    metrics,
    probes: {
      service: 'registry-service',
      version: config.SERVICE_VERSION,
      lifecycle,
      pingDatabase: () => pingRedis(redis),
      // Instances of one service that disagree on their routes are an operator's business: shown in /health
      // (nothing to show while Redis is down: the database status already says why).
      upstreams: async () => {
        const mismatches = await instances.manifestMismatches().catch(() => []);
        const problem = 'its instances disagree on their route manifest';
        return {
          summary: Object.fromEntries(mismatches.map(({ service }) => [service, { status: 'unhealthy' as const, error: problem }])),
          detailed: Object.fromEntries(mismatches.map(({ service, digests }) => [service, { status: 'unhealthy' as const, error: problem, manifest_digests: digests }])),
        };
      },
    },
  });
  app.use(endpointRouter([instancesEndpoints(instances)], { internalSecret: config.INTERNAL_SECRET }));
  return finishHttpApp(app, logger);
}
