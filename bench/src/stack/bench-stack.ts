import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type AppName, type LogLine, type Stack } from '@mt/stack';
import { HttpClient } from '../load/http-client';
import { scrape } from '../load/metrics';
import { required } from '../required';

export interface BenchStackOptions {
  mongoUrl: string;
  redisUrl: string;
  /** Names the Redis prefix and the databases: `<name>:` and `<name>_auth`, `<name>_catalog_<category>`. */
  name: string;
  rootDir: string;
  /** Default: all of them. */
  apps?: readonly AppName[];
  /** Apps profiled with the inspector (bench/tools/cpu-profile-preload.cjs); profiles land in `profileDir` at exit. */
  profileApps?: readonly AppName[];
  profileDir?: string;
  /** Every service in one process (`npm start -- --single-process`). */
  singleProcess?: boolean;
  /** More variables for every service (the metadata providers' replay server). */
  env?: Record<string, string>;
  /** Extra environment of the gateway (the image scenario's image host). */
  gatewayEnv?: NodeJS.ProcessEnv;
  /** The catalogs read the catalog databases of the stack of this name (a second build over the same data). */
  catalogDataOf?: string;
}

export interface BenchStack {
  stack: Stack;
  gatewayUrl: string;
  /** Every warn/error/fatal line and everything on stderr, by process. */
  problems: LogLine[];
  stop(): Promise<void>;
}

export const benchDatabases = (name: string) => ({
  auth: `${name}_auth`,
  catalog: (category: string) => `${name}_catalog_${category}`,
  scrobble: `${name}_scrobble`,
});

export const benchRedisPrefix = (name: string) => `${name}:`;

const PROBLEM_LEVELS = new Set(['warn', 'error', 'fatal', 40, 50, 60]);

/**
 * The whole stack as processes (gateway, auth, registry, one catalog per category) on free ports, with its
 * own Redis prefix and databases. Settings that differ from `npm start`, and why:
 * - LOG_LEVEL=warn: every request line would otherwise travel through a pipe into this process and be
 *   parsed here, on the same two cores as the load; nginx runs without an access log likewise.
 * - RATE_LIMIT_PER_MINUTE=10000000: the limiter still counts every request (part of the gateway's cost),
 *   but a benchmark client hammering from one IP must not be limited.
 */
export async function startBenchStack(options: BenchStackOptions): Promise<BenchStack> {
  const problems: LogLine[] = [];
  const databases = benchDatabases(options.name);
  const profileEnv = (app: AppName): NodeJS.ProcessEnv =>
    options.profileApps?.includes(app) && options.profileDir
      ? {
          NODE_OPTIONS: `--require ${path.join(options.rootDir, 'bench', 'tools', 'cpu-profile-preload.cjs')}`,
          CPU_PROFILE_DIR: options.profileDir,
        }
      : {};
  const stack = await startStack({
    rootDir: options.rootDir,
    singleProcess: options.singleProcess,
    apps: options.apps,
    ports: 'free',
    gatewayPort: 0,
    mongoUrl: options.mongoUrl,
    redisUrl: options.redisUrl,
    redisKeyPrefix: benchRedisPrefix(options.name),
    mongoDbNames: { auth: databases.auth, catalog: benchDatabases(options.catalogDataOf ?? options.name).catalog, scrobble: databases.scrobble },
    logLevel: 'warn',
    env: {
      RATE_LIMIT_PER_MINUTE: '10000000',
      JWT_KEY_DIR: path.join(options.rootDir, 'tmp', 'bench-keys'),
      ...options.env,
    },
    appEnv: {
      gateway: { ...profileEnv('gateway'), ...options.gatewayEnv },
      'auth-service': profileEnv('auth-service'),
      'registry-service': profileEnv('registry-service'),
      'catalog-service': profileEnv('catalog-service'),
    },
    onLog: (line) => {
      const level = line.json?.['level'];
      if (line.stream === 'stderr' || (level !== undefined && PROBLEM_LEVELS.has(level as string)))
        problems.push(line);
    },
  });
  return { stack, gatewayUrl: required(stack.gatewayUrl, 'gateway URL'), problems, stop: () => stack.stop() };
}

/** Polls every process's /readyz until each has answered 200 once; resolves with ms since `since`. */
export async function waitAllReady(
  stack: Stack,
  since: number,
  timeoutMs = 60_000,
): Promise<{ allMs: number; byProcess: Record<string, number> }> {
  const client = new HttpClient(16);
  const byProcess: Record<string, number> = {};
  const deadline = Date.now() + timeoutMs;
  try {
    await Promise.all(
      stack.processes.map(async (service) => {
        for (;;) {
          if (!service.running)
            throw new Error(
              `${service.name} exited during start-up: ${service.recentOutput().slice(-5).join(' | ')}`,
            );
          const answer = await client
            .send(`${service.url}/readyz`, { timeoutMs: 1000 })
            .catch(() => undefined);
          if (answer?.status === 200) {
            byProcess[service.name] = performance.now() - since;
            return;
          }
          if (Date.now() > deadline) throw new Error(`${service.name} not ready within ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );
  } finally {
    client.close();
  }
  return { allMs: Math.max(...Object.values(byProcess)), byProcess };
}

/** Resolves once the gateway lists `count` categories (registration reaches its route table asynchronously). */
export async function waitForCategories(
  gatewayUrl: string,
  count: number,
  timeoutMs = 60_000,
): Promise<void> {
  const client = new HttpClient(1);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const answer = await client
        .send(`${gatewayUrl}/api/v1/categories`, { timeoutMs: 2000 })
        .catch(() => undefined);
      if (answer?.status === 200 && (JSON.parse(answer.body) as unknown[]).length >= count) return;
      if (Date.now() > deadline)
        throw new Error(
          `the gateway did not list ${count} categories within ${timeoutMs} ms (last: ${answer?.status} ${answer?.body.slice(0, 200)})`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    client.close();
  }
}

/** Resident set size of a process in MB (VmRSS of /proc/<pid>/status); NaN when it cannot be read. */
export function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export function stackRss(stack: Stack): Record<string, number> {
  return Object.fromEntries(stack.processes.map((service) => [service.name, rssMb(service.pid)]));
}

/** What the RSS is made of, per process, from its metrics port's /metrics (prom-client's default Node.js metrics). */
export async function memoryBreakdown(
  stack: Stack,
): Promise<Record<string, { heap_total_mb: number; heap_used_mb: number; external_mb: number }>> {
  const mb = (text: string, name: string) => gauge(text, name) / 2 ** 20;
  const entries = await Promise.all(
    stack.processes.map(async (service) => {
      const text = service.metricsUrl ? await scrape(service.metricsUrl).catch(() => '') : '';
      return [
        service.name,
        {
          heap_total_mb: Math.round(mb(text, 'nodejs_heap_size_total_bytes')),
          heap_used_mb: Math.round(mb(text, 'nodejs_heap_size_used_bytes')),
          external_mb: Math.round(mb(text, 'nodejs_external_memory_bytes')),
        },
      ] as const;
    }),
  );
  return Object.fromEntries(entries);
}

function gauge(text: string, name: string): number {
  const line = text
    .split('\n')
    .find((candidate) => candidate.startsWith(`${name}{`) || candidate.startsWith(`${name} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : Number.NaN;
}
