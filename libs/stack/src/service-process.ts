import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { delay, httpGet, type ProbeAnswer } from './http-probe';
import { parseLogLine, type LogSink } from './log-format';
import { appEntry, findWorkspaceRoot, type AppName } from './workspace';

export interface ServiceSpec {
  /** Process name: log prefix and handle name (`gateway`, `catalog-movies`, ...). */
  name: string;
  app: AppName;
  /** The script to run, when not the app's own bundle (`dist/apps/<app>/main.js`): the all-in-one host. */
  entry?: string;
  port: number;
  /** Its metrics port (METRICS_PORT: /metrics and the detailed /health); default: the service's own default. */
  metricsPort?: number;
  /** Address the service binds to (default 127.0.0.1). */
  host?: string;
  /** The process environment: inherited variables plus the service's own (PORT and HOST are set from the spec). */
  env: NodeJS.ProcessEnv;
  /** Where the built apps are (`dist/apps/<app>/main.js`); default: the workspace root. */
  rootDir?: string;
  /** Receives every output line; lines are also kept (see `recentOutput`). */
  onLog?: LogSink;
  /** Called when the process exits; `requested` is true when it was asked to through `stop`/`restart`. */
  onExit?: (service: ServiceProcess, exit: ExitInfo, requested: boolean) => void;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RestartOptions {
  /** Wait until /readyz answers 200 (default true). */
  waitReady?: boolean;
  readyTimeoutMs?: number;
  /** Variables to change for the new process. */
  env?: NodeJS.ProcessEnv;
}

/** A handle on one service process. */
export interface ServiceProcess {
  readonly name: string;
  readonly app: AppName;
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The metrics port given in the spec, and `http://127.0.0.1:<metrics port>` (undefined when not given). */
  readonly metricsPort: number | undefined;
  readonly metricsUrl: string | undefined;
  /** The current process's pid (a restart changes it). */
  readonly pid: number;
  /** True until the current process has exited. */
  readonly running: boolean;
  /** How the current process ended, once it has. */
  readonly exitInfo: ExitInfo | undefined;
  /** Resolves when the current process exits. */
  readonly exited: Promise<ExitInfo>;
  /** Sends a signal to the current process (default SIGTERM); false when it is not running. */
  kill(signal?: NodeJS.Signals): boolean;
  /** SIGTERM, then SIGKILL after `graceMs` (default 10 s); resolves with how it ended. */
  stop(graceMs?: number): Promise<ExitInfo>;
  /** Stops the process (gracefully) and starts it again on the same port. */
  restart(options?: RestartOptions): Promise<void>;
  /** Resolves once GET /readyz answers 200; rejects when the process exits first or on timeout. */
  waitReady(timeoutMs?: number): Promise<void>;
  /** The last output lines (up to 200), for error reports and assertions. */
  recentOutput(): string[];
}

const KEPT_LINES = 200;

/** Why a process is not ready, in one line an operator can act on. */
function lastWords(service: ServiceProcess, lines = 8): string {
  const tail = service.recentOutput().slice(-lines);
  return tail.length ? `; last output:\n    ${tail.join('\n    ')}` : '';
}

export function describeExit(exit: ExitInfo): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

/** Resolves once GET <url>/readyz answers 200; rejects when the process exits first or at the timeout. */
export async function waitUntilReady(service: ServiceProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: ProbeAnswer | Error | undefined;
  while (Date.now() < deadline) {
    if (!service.running) {
      throw new Error(`${service.name} ${describeExit(service.exitInfo ?? (await service.exited))} before it was ready${lastWords(service)}`);
    }
    try {
      last = await httpGet(`${service.url}/readyz`, Math.min(1500, Math.max(100, deadline - Date.now())));
      if (last.status === 200) return;
    } catch (error) {
      last = error as Error;
    }
    await delay(100);
  }
  const seen = last instanceof Error ? last.message : last ? `${last.status} ${last.body}` : 'no answer';
  throw new Error(`${service.name} was not ready within ${timeoutMs} ms (last /readyz: ${seen})${lastWords(service)}`);
}

/** Starts a built app (`dist/apps/<app>/main.js`) as its own process. */
export function spawnService(spec: ServiceSpec): ServiceProcess {
  const rootDir = spec.rootDir ?? findWorkspaceRoot();
  const entry = spec.entry ?? appEntry(rootDir, spec.app);
  if (!existsSync(entry)) throw new Error(`${spec.name}: ${entry} does not exist; build it first (npm run build)`);
  const host = spec.host ?? '127.0.0.1';
  let env: NodeJS.ProcessEnv = { ...spec.env };
  const output: string[] = [];
  let child!: ChildProcess;
  let exitInfo: ExitInfo | undefined;
  let exited!: Promise<ExitInfo>;
  let stopRequested = false;

  const keep = (text: string) => {
    output.push(text);
    if (output.length > KEPT_LINES) output.shift();
  };

  const launch = () => {
    exitInfo = undefined;
    stopRequested = false;
    // Own process group: a terminal's Ctrl-C reaches the launcher only, which then stops every service in order.
    child = spawn(process.execPath, [entry], {
      cwd: rootDir,
      env: { ...env, PORT: String(spec.port), HOST: host, ...(spec.metricsPort === undefined ? {} : { METRICS_PORT: String(spec.metricsPort) }) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const current = child;
    for (const stream of ['stdout', 'stderr'] as const) {
      const input = current[stream];
      if (!input) continue;
      createInterface({ input, crlfDelay: Infinity }).on('line', (text) => {
        keep(text);
        spec.onLog?.(parseLogLine(spec.name, stream, text));
      });
    }
    exited = new Promise<ExitInfo>((resolve) => {
      current.once('error', (error) => {
        keep(`failed to start: ${error.message}`);
        exitInfo = { code: -1, signal: null };
        resolve(exitInfo);
      });
      // 'close' (not 'exit'): every output line has been read by then.
      current.once('close', (code, signal) => {
        exitInfo ??= { code, signal };
        resolve(exitInfo);
        spec.onExit?.(handle, exitInfo, stopRequested);
      });
    });
  };

  const handle: ServiceProcess = {
    name: spec.name,
    app: spec.app,
    port: spec.port,
    url: `http://127.0.0.1:${spec.port}`,
    metricsPort: spec.metricsPort,
    metricsUrl: spec.metricsPort === undefined ? undefined : `http://127.0.0.1:${spec.metricsPort}`,
    get pid() {
      return child.pid ?? -1;
    },
    get running() {
      return exitInfo === undefined && child.exitCode === null && child.signalCode === null;
    },
    get exitInfo() {
      return exitInfo;
    },
    get exited() {
      return exited;
    },
    kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (!handle.running || child.pid === undefined) return false;
      try {
        process.kill(child.pid, signal);
        return true;
      } catch {
        return false;
      }
    },
    async stop(graceMs = 10_000) {
      if (!handle.running) return exited;
      stopRequested = true;
      handle.kill('SIGTERM');
      const killer = setTimeout(() => {
        if (!handle.running) return;
        keep(`did not stop within ${graceMs} ms of SIGTERM; sending SIGKILL`);
        spec.onLog?.(parseLogLine('stack', 'stderr', `${spec.name} did not stop within ${graceMs} ms; killing it`));
        handle.kill('SIGKILL');
      }, graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(killer);
      }
    },
    async restart(options: RestartOptions = {}) {
      await handle.stop();
      if (options.env) env = { ...env, ...options.env };
      launch();
      if (options.waitReady ?? true) await handle.waitReady(options.readyTimeoutMs);
    },
    waitReady: (timeoutMs = 30_000) => waitUntilReady(handle, timeoutMs),
    recentOutput: () => [...output],
  };

  launch();
  return handle;
}
