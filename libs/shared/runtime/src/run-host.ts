import type { RunningService } from '@mt/http';
import { createLogger, stdoutLogDestination } from '@mt/logging';
import {
  collectWhenIdle,
  exitWith,
  startServiceProcess,
  startupFailureMessage,
  watchProcess,
  type ServiceBaseConfig,
  type ServiceDefinition,
  type StartServiceOptions,
  type StoreSpecs,
} from './run-service';

/** One service of a host: started with its own environment, stopped in its wave. */
export interface HostedService {
  /** How the host names it (`gateway`, `catalog-movies`): in its own messages and errors. */
  name: string;
  /** Shutdown order: wave 0 stops first, then 1...; the services of one wave stop together. */
  stopWave: number;
  start(options: Pick<StartServiceOptions, 'logDestination'>): Promise<RunningService>;
}

/** A service definition with the variables it reads its configuration from, ready for a host. */
export function hostedService<C extends ServiceBaseConfig, S extends StoreSpecs>(
  name: string,
  definition: ServiceDefinition<C, S>,
  env: NodeJS.ProcessEnv,
  stopWave: number,
): HostedService {
  return {
    name,
    stopWave,
    start: (options) => startServiceProcess(definition, { ...options, env, attachToProcess: false }),
  };
}

export interface RunningHost {
  services: ReadonlyArray<{ name: string; running: RunningService }>;
  /** Resolves once every service has finished its start-up; rejects naming the first that failed. */
  started: Promise<void>;
  /** Stops the services wave by wave (each drains and closes its own stores). */
  stop(reason?: string): Promise<void>;
}

/**
 * Several services in one process, each with its own app, config, logger, metrics registry, stores and
 * shutdown, started in the order given (a failure stops the ones already listening and names the service).
 */
export async function startServiceHost(
  services: readonly HostedService[],
  options: Pick<StartServiceOptions, 'logDestination'> = {},
): Promise<RunningHost> {
  const running: Array<{ name: string; stopWave: number; running: RunningService }> = [];
  const stopWaves = async (reason?: string) => {
    const waves = [...new Set(running.map((service) => service.stopWave))].sort((a, b) => a - b);
    for (const wave of waves) {
      await Promise.all(running.filter((service) => service.stopWave === wave).map((service) => service.running.stop(reason)));
    }
  };
  for (const service of services) {
    try {
      running.push({ name: service.name, stopWave: service.stopWave, running: await service.start(options) });
    } catch (error) {
      await stopWaves('start-up failed').catch(() => undefined);
      throw new Error(`${service.name}: ${startupFailureMessage(error)}`);
    }
  }
  const started = Promise.all(
    running.map(({ name, running: service }) =>
      service.started.catch((error: unknown) => {
        throw new Error(`${name}: ${(error as Error).message}`);
      }),
    ),
  ).then(() => undefined);
  started.catch(() => undefined);
  return { services: running.map(({ name, running: service }) => ({ name, running: service })), started, stop: stopWaves };
}

/**
 * `runService` for a host: the services share the process's stdout writer, its handlers of unexpected errors
 * and its idle collector (one each, logging under the host's name); SIGTERM/SIGINT stops them wave by wave and exits 0.
 * A failed start-up of any service stops the others and exits 1 with one message naming it.
 */
export function runServiceHost(host: string, services: readonly HostedService[], logLevel = 'info'): void {
  // One writer for every service: several asynchronous writers on one descriptor could interleave partial lines.
  const logDestination = stdoutLogDestination();
  const logger = createLogger({ service: host, level: logLevel, destination: logDestination });
  watchProcess(logger);
  startServiceHost(services, { logDestination }).then(
    (running) => {
      // A service that fails its start-up takes the others down with it before the process exits.
      const started = running.started.catch(async (error: unknown) => {
        await running.stop('start-up failed').catch(() => undefined);
        throw error;
      });
      exitWith({ started, stop: running.stop }, logger);
      collectWhenIdle(logger);
    },
    (error: unknown) => {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
