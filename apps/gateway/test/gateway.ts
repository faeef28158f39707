import { createMetrics, type Metrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import type { RouteTable } from '@mt/registry-client';
import { closeRedis, createRedis, waitForRedis, type Redis } from '@mt/stores';
import { closedPort, deleteRedisPrefix, silentLogger, testRedisPrefix, testRedisUrl } from '@mt/testing';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { createApp } from '../src/app';
import { loadGatewayConfig, type GatewayConfig } from '../src/config';
import { UpstreamAgents } from '../src/proxy/agents';
import { TEST_SECRET } from './keys';
import { authRoutes } from './manifests';
import type { StaticRouteTable } from './static-route-table';

export interface TestGateway {
  app: Express;
  config: GatewayConfig;
  redis: Redis;
  prefix: string;
  metrics: Metrics;
  close: () => Promise<void>;
}

export interface TestGatewayOptions {
  routeTable: RouteTable;
  authUrl: string;
  env?: Record<string, string>;
  /** Point the gateway at a Redis that is not there. */
  redisDown?: boolean;
  logger?: Logger;
  jwks?: { minRefetchIntervalMs?: number };
  /** Share a Redis namespace with another service under test, which clears it (default: a fresh one, cleared at close). */
  prefix?: string;
  /** Reach Redis at this URL (a relay in front of the test Redis) instead of directly. */
  redisUrl?: string;
}

/**
 * createApp(deps) with a real Redis (own key prefix) or an unreachable one, ready to take requests. With a
 * StaticRouteTable, the auth service at `authUrl` is routed too (as its registration would make it).
 */
export async function startTestGateway(options: TestGatewayOptions): Promise<TestGateway> {
  const table = options.routeTable as Partial<StaticRouteTable>;
  if (table.setInstances && !table.hasService?.('auth')) table.setInstances('auth', [{ id: 'auth-1', url: options.authUrl }], authRoutes(), false);
  const prefix = options.prefix ?? testRedisPrefix('gw');
  const redisUrl = options.redisDown ? `redis://127.0.0.1:${await closedPort()}` : (options.redisUrl ?? testRedisUrl());
  const config = loadGatewayConfig({
    INTERNAL_SECRET: TEST_SECRET,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    AUTH_URL: options.authUrl,
    REGISTRY_URL: `http://127.0.0.1:${await closedPort()}`,
    PROXY_TIMEOUT_MS: '2000',
    ...options.env,
  });
  const logger = options.logger ?? silentLogger();
  const redis = createRedis({ url: redisUrl, logger, name: 'gateway-test' });
  if (!options.redisDown) await waitForRedis(redis);
  const lifecycle = createLifecycle();
  lifecycle.started = true;
  const agents = new UpstreamAgents();
  const metrics = createMetrics('gateway-test');
  const app = createApp({
    config,
    logger,
    lifecycle,
    redis,
    metrics,
    routeTable: options.routeTable,
    agents,
    jwks: options.jwks,
  });
  return {
    app,
    config,
    redis,
    prefix,
    metrics,
    close: async () => {
      agents.destroy();
      if (!options.redisDown && !options.prefix) await deleteRedisPrefix(prefix);
      await closeRedis(redis);
    },
  };
}

/** A counter's value for one label set, read from the registry. */
export async function counterValue(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric as { values?: Array<{ labels: Record<string, string | number>; value: number }> } | undefined)?.values ?? [];
  return values
    .filter((v) => Object.entries(labels).every(([key, value]) => String(v.labels[key]) === value))
    .reduce((sum, v) => sum + v.value, 0);
}
