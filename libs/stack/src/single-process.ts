import path from 'node:path';
import type { LogLine, LogSink } from './log-format';
import { spawnService, waitUntilReady, type ExitInfo, type ServiceProcess } from './service-process';
import type { AppName } from './workspace';

/** The name of the host process and of its own log lines (apps/all-in-one). */
export const HOST_NAME = 'all-in-one';
/** The variable the host reads its plan from (SERVICES_PLAN_VARIABLE of apps/all-in-one, which this lib may not import). */
export const SERVICES_PLAN_VARIABLE = 'MT_SERVICES';

export const hostEntry = (rootDir: string): string => path.join(rootDir, 'dist', 'apps', HOST_NAME, 'main.js');

/** One service of the host, as the launcher planned it. */
export interface PlannedService {
  name: string;
  app: AppName;
  port: number;
  metricsPort: number | undefined;
  /** Its own variables only (the host passes its environment to every service, under these). */
  env: NodeJS.ProcessEnv;
}

export interface HostSpec {
  /** In start-up order. */
  services: readonly PlannedService[];
  host: string;
  /** The host's environment: what every service shares. */
  env: NodeJS.ProcessEnv;
  rootDir: string;
  onLog?: LogSink;
  onExit?: (service: ServiceProcess, exit: ExitInfo, requested: boolean) => void;
}

/**
 * The service a line of the host belongs to, from the JSON line's `service` (and a catalog's `category`):
 * `catalog-service` + `movies` is `catalog-movies`, as the process is called in multi-process mode. The
 * host's own lines, and anything not JSON, are the host's.
 */
export function hostedServiceOf(line: LogLine, names: ReadonlySet<string>): string {
  const service = line.json?.['service'];
  const category = line.json?.['category'];
  const name = service === 'catalog-service' && typeof category === 'string' ? `catalog-${category}` : service;
  return typeof name === 'string' && names.has(name) ? name : HOST_NAME;
}

const KEPT_LINES = 200;

/**
 * Spawns the all-in-one host with the plan, and returns a handle per planned service that behaves like a
 * process of its own where it can: its URLs, its own /readyz, its own log lines; the pid, exit and signals
 * are the host's (stopping or killing one stops or kills them all), and a restart of one is refused.
 */
export function spawnHost(spec: HostSpec): { host: ServiceProcess; services: ServiceProcess[] } {
  const names = new Set(spec.services.map((service) => service.name));
  const output = new Map<string, string[]>([...names, HOST_NAME].map((name) => [name, []]));
  const front = spec.services.find((service) => service.app === 'gateway') ?? spec.services[0];
  if (!front) throw new Error('single-process mode: no service to host');
  const host = spawnService({
    name: HOST_NAME,
    app: front.app,
    entry: hostEntry(spec.rootDir),
    port: front.port,
    metricsPort: front.metricsPort,
    host: spec.host,
    rootDir: spec.rootDir,
    env: {
      ...spec.env,
      [SERVICES_PLAN_VARIABLE]: JSON.stringify(
        spec.services.map(({ name, app, port, metricsPort, env }) => ({
          name,
          app,
          env: { ...env, PORT: String(port), HOST: spec.host, ...(metricsPort === undefined ? {} : { METRICS_PORT: String(metricsPort) }) },
        })),
      ),
    },
    onLog: (line) => {
      const name = hostedServiceOf(line, names);
      const kept = output.get(name) ?? [];
      kept.push(line.text);
      if (kept.length > KEPT_LINES) kept.shift();
      spec.onLog?.({ ...line, process: name });
    },
    onExit: spec.onExit,
  });
  const services = spec.services.map((planned): ServiceProcess => {
    const handle: ServiceProcess = {
      name: planned.name,
      app: planned.app,
      port: planned.port,
      url: `http://127.0.0.1:${planned.port}`,
      metricsPort: planned.metricsPort,
      metricsUrl: planned.metricsPort === undefined ? undefined : `http://127.0.0.1:${planned.metricsPort}`,
      get pid() {
        return host.pid;
      },
      get running() {
        return host.running;
      },
      get exitInfo() {
        return host.exitInfo;
      },
      get exited() {
        return host.exited;
      },
      kill: (signal) => host.kill(signal),
      stop: (graceMs) => host.stop(graceMs),
      restart: () => Promise.reject(new Error(`${planned.name} runs inside the single ${HOST_NAME} process: it cannot be restarted on its own`)),
      waitReady: (timeoutMs = 30_000) => waitUntilReady(handle, timeoutMs),
      // Its own lines, then the host's (a start-up failure of the host names the service in the host's words).
      recentOutput: () => [...(output.get(planned.name) ?? []), ...(output.get(HOST_NAME) ?? [])],
    };
    return handle;
  });
  return { host, services };
}
