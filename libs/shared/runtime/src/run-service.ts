import { ConfigError } from '@mt/config';
import { createMetricsApp, healthReportOf, startService, type RunningService } from '@mt/http';
import { createLogger, type Logger, type LoggerOptions } from '@mt/logging';
import { createMetrics, type Metrics } from '@mt/metrics';
import { createLifecycle, type Lifecycle } from '@mt/probes';
import {
  closeMongo,
  closeRedis,
  createMongoConnection,
  createRedis,
  openMongo,
  waitForRedis,
  type Redis,
} from '@mt/stores';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { startIdleCollector } from './idle-collector';

/** The variables of `baseEnvShape` (@mt/config) the runtime reads. */
export interface ServiceBaseConfig {
  PORT: number;
  HOST: string;
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
  REQUEST_TIMEOUT_MS: number;
  METRICS_PORT: number;
}

/** The stores the runtime connects for a service, and closes after it. */
export interface StoreSpecs {
  /** Connected (retrying) before `startup` runs; readiness stays 503 until it is. */
  mongo?: { url: string; dbName: string };
  /** `waitAtStartup`: start-up waits for it (the service's own store); otherwise it connects in the background. */
  redis?: { url: string; waitAtStartup: boolean };
}

/** The clients of the stores asked for: `mongo` and `redis` are there exactly when the specs name them. */
export type StoreClients<S extends StoreSpecs> = (S extends { mongo: object }
  ? { mongo: Connection }
  : unknown) &
  (S extends { redis: object } ? { redis: Redis } : unknown);

export interface ServiceContext<C> {
  config: C;
  /** JSON lines on stdout, with the service name (and `instance.logFields`) on every line. */
  logger: Logger;
  lifecycle: Lifecycle;
  metrics: Metrics;
}

/** Something that announces the running service (the registry registration): started last, stopped first. */
export interface ServiceRegistration {
  /** Starts announcing in the background (retrying on its own). */
  start(): void;
  /** Resolves once announced: start-up (and /startupz) waits for it. Resolves too when stopped first. */
  registered(): Promise<void>;
  /** Withdraws the announcement; called on SIGTERM before draining, so traffic stops coming here. */
  stop(): Promise<void>;
}

/** What a service builds from its context: its HTTP app and its own start-up and shutdown work. */
export interface ServiceParts {
  app: Express;
  /** After the stores are connected: indexes, consumers... Stop early when `signal` aborts. */
  startup?: (signal: AbortSignal) => Promise<void>;
  /** Announced once `startup` has finished; withdrawn first on shutdown. */
  registration?: ServiceRegistration;
  /**
   * Start-up (and /startupz) waits for the registration unless this is true: a service whose own work does
   * not depend on being routed (the auth service: the gateway reaches its internal endpoints directly)
   * registers in the background.
   */
  registerInBackground?: boolean;
  /** After in-flight requests have drained, before the stores close: stop consumers and timers. */
  shutdown?: () => Promise<void>;
}

export interface ServiceDefinition<C extends ServiceBaseConfig, S extends StoreSpecs> {
  /** `gateway`, `auth-service`...: the `service` of every log line and the metrics' `service` label. */
  name: string;
  /** Parses the environment (`env`, default process.env); a ConfigError names every bad variable. */
  loadConfig: (env?: NodeJS.ProcessEnv) => C;
  /** One of several processes of the same service (a catalog's category): named in messages and log lines. */
  instance?: (config: C) => { id: string; logFields: Record<string, unknown> };
  stores?: (config: C) => S;
  /** Builds the app and the service's parts; a thrown error ends start-up with its message. */
  create: (context: ServiceContext<C> & StoreClients<S>) => ServiceParts | Promise<ServiceParts>;
}

/**
 * The start-up of every service process, so each main.ts says only what differs: config → logger, metrics,
 * lifecycle → stores → the service's parts → listen (API port and metrics port) → start-up (stores connected,
 * the service's own work, registration) → until SIGTERM/SIGINT: withdraw the registration, drain, stop, close
 * the stores, exit 0. A bad configuration or a failed set-up exits 1 with one message on stderr (no stack).
 */
export function runService<C extends ServiceBaseConfig, S extends StoreSpecs>(
  definition: ServiceDefinition<C, S>,
): void {
  startServiceProcess(definition).catch((error: unknown) => {
    process.stderr.write(`${startupFailureMessage(error)}\n`);
    process.exit(1);
  });
}

export function startupFailureMessage(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  return `start-up failed: ${error instanceof Error ? error.message : String(error)}`;
}

export interface StartServiceOptions {
  /**
   * Signals, exit code, the handlers of unexpected errors and the idle collector belong to the process: true
   * for a service that is the whole process; false when a host (or a test) runs several services in one.
   */
  attachToProcess?: boolean;
  /** The variables this service reads its configuration from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where its log lines go (default: its own asynchronous stdout writer); a host shares one among its services. */
  logDestination?: LoggerOptions['destination'];
}

/** The body of `runService`, for hosts and tests: resolves once listening, with the running service. */
export async function startServiceProcess<C extends ServiceBaseConfig, S extends StoreSpecs>(
  definition: ServiceDefinition<C, S>,
  options: StartServiceOptions = {},
): Promise<RunningService> {
  const config = definition.loadConfig(options.env ?? process.env);
  const instance = definition.instance?.(config);
  const label = instance ? `${definition.name} (${instance.id})` : definition.name;
  /** Names the process to the stores (MongoDB appName, Redis CLIENT LIST). */
  const clientName = instance ? `${definition.name}-${instance.id}` : definition.name;
  const rootLogger = createLogger({ service: definition.name, level: config.LOG_LEVEL, destination: options.logDestination });
  const logger = instance ? rootLogger.child(instance.logFields) : rootLogger;
  const lifecycle = createLifecycle();
  const metrics = createMetrics(definition.name);

  const specs = definition.stores?.(config) ?? ({} as S);
  const mongo = specs.mongo ? createMongoConnection() : undefined;
  const redis = specs.redis ? createRedis({ url: specs.redis.url, logger, name: clientName }) : undefined;
  const context = {
    config,
    logger,
    lifecycle,
    metrics,
    ...(mongo ? { mongo } : {}),
    ...(redis ? { redis } : {}),
  } as ServiceContext<C> & StoreClients<S>;
  const closeStores = () => Promise.all([mongo && closeMongo(mongo), redis && closeRedis(redis)]);

  let parts: ServiceParts;
  try {
    parts = await definition.create(context);
  } catch (error) {
    await closeStores();
    throw error;
  }
  const { registration } = parts;

  // Tests run several services in one process: they leave its signals and exit code alone.
  const attachToProcess = options.attachToProcess ?? true;
  if (attachToProcess) watchProcess(logger);
  const running = await startService({
    name: label,
    app: parts.app,
    logger,
    lifecycle,
    port: config.PORT,
    host: config.HOST,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    metricsServer: {
      app: createMetricsApp({ metrics, health: healthReportOf(parts.app), logger }),
      port: config.METRICS_PORT,
    },
    startup: async (signal) => {
      if (mongo && specs.mongo) {
        await openMongo(
          mongo,
          { url: specs.mongo.url, dbName: specs.mongo.dbName, logger, appName: clientName },
          signal,
        );
      }
      if (redis && specs.redis?.waitAtStartup) await waitForRedis(redis, signal);
      if (signal.aborted) return;
      await parts.startup?.(signal);
      if (signal.aborted || !registration) return;
      // Last: whoever routes here on the strength of it finds everything above ready.
      registration.start();
      if (!parts.registerInBackground) await registration.registered();
    },
    beforeDrain: registration ? () => registration.stop() : undefined,
    shutdown: async () => {
      await registration?.stop();
      await parts.shutdown?.();
      await closeStores();
    },
  }).catch(async (error: unknown) => {
    await closeStores();
    throw error;
  });
  if (attachToProcess) {
    exitWith(running, logger);
    collectWhenIdle(logger);
  }
  return running;
}

/** The process's idle collector (one per process, whatever it hosts), reporting to `logger` at debug. */
export function collectWhenIdle(logger: Logger): void {
  const mb = (bytes: number) => Math.round(bytes / 1048576);
  startIdleCollector({ onCollect: (before, after) => logger.debug({ heap_used_mb: mb(before), after_mb: mb(after) }, 'idle: the last burst\'s garbage collected') });
}

/** Unexpected errors are logged without their stack; an uncaught exception ends the process. */
export function watchProcess(logger: Logger): void {
  process.on('unhandledRejection', (reason) =>
    logger.error(
      { reason: reason instanceof Error ? reason.message : String(reason) },
      'unhandled rejection',
    ),
  );
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: { name: error.name, message: error.message } }, 'uncaught exception; exiting');
    process.exit(1);
  });
}

/** Exit 1 if start-up throws; on SIGTERM/SIGINT stop gracefully and exit 0 (1 if stopping failed). */
export function exitWith(running: Pick<RunningService, 'started' | 'stop'>, logger: Logger): void {
  running.started.catch((error: Error) => {
    logger.fatal({ err: { name: error.name, message: error.message } }, 'start-up failed');
    process.exit(1);
  });
  const onSignal = (signal: NodeJS.Signals) => {
    running.stop(signal).then(
      () => process.exit(0),
      (error: Error) => {
        logger.error({ err: { message: error.message } }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

/** A service definition with its types inferred (config and stores), for a main.ts or a host to run. */
export const defineService = <C extends ServiceBaseConfig, S extends StoreSpecs>(definition: ServiceDefinition<C, S>): ServiceDefinition<C, S> =>
  definition;
