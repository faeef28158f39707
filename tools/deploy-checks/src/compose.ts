import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CATEGORIES, PACKAGE_VERSION, REPO_ROOT } from './repo';

const run = promisify(execFile);

export interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string; target?: string } | string;
  command?: string[] | string;
  environment?: Record<string, string | number | null> | string[];
  ports?: Array<string | { target?: number | string; published?: number | string }>;
  expose?: Array<string | number>;
  labels?: Record<string, string> | string[];
  volumes?: Array<string | { source?: string; target?: string }>;
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
}
export interface ComposeModel {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** The app image each Node service of the stack runs. */
export const COMPOSE_APPS: Record<string, { app: string; port: number }> = {
  gateway: { app: 'gateway', port: 8080 },
  'auth-service': { app: 'auth-service', port: 3001 },
  'registry-service': { app: 'registry-service', port: 3002 },
  'scrobble-service': { app: 'scrobble-service', port: 3020 },
  ...Object.fromEntries(
    CATEGORIES.map(({ category, port }) => [`catalog-${category}`, { app: 'catalog-service', port }]),
  ),
};

const environmentOf = (service: ComposeService): Record<string, string> => {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((entry) => [entry.split('=')[0], entry.split('=').slice(1).join('=')]));
  }
  return Object.fromEntries(
    Object.entries(env).map(([key, value]) => [key, value === null ? '' : String(value)]),
  );
};
const labelsOf = (service: ComposeService): Record<string, string> => {
  const labels = service.labels ?? {};
  if (Array.isArray(labels))
    return Object.fromEntries(
      labels.map((entry) => [entry.split('=')[0], entry.split('=').slice(1).join('=')]),
    );
  return labels;
};
/** The services' default METRICS_PORT (@mt/config). */
const DEFAULT_METRICS_PORT = '9464';
/** `media-tracker/<app>:${IMAGE_TAG:-<default>}` as written, or `media-tracker/<app>:<tag>` once resolved. */
const IMAGE = /^media-tracker\/([a-z-]+):(?:\$\{IMAGE_TAG:-([^}]+)\}|([^$]+))$/;
const commandOf = (value: string[] | string | undefined) =>
  Array.isArray(value) ? value.join(' ') : (value ?? '');
const volumeTarget = (volume: string | { source?: string; target?: string }) =>
  typeof volume === 'string' ? { source: volume.split(':')[0], target: volume.split(':')[1] } : volume;

/** Semantic problems of a compose model (raw or as `docker-compose config` resolved it). */
export function checkCompose(model: ComposeModel): string[] {
  const problems: string[] = [];
  const services = model.services ?? {};
  const required = ['mongo', 'redis', ...Object.keys(COMPOSE_APPS)];
  for (const name of required) if (!services[name]) problems.push(`missing service ${name}`);

  const mongo = services['mongo'];
  if (mongo) {
    if (mongo.image !== 'mongo:7') problems.push(`mongo image ${mongo.image}, expected mongo:7`);
    if (!/--replSet rs0\b/.test(commandOf(mongo.command)))
      problems.push('mongo must run as replica set rs0 (--replSet rs0)');
    const check = commandOf(mongo.healthcheck?.test);
    if (!/rs\.initiate\(/.test(check) || !/_id: 'rs0'/.test(check)) {
      problems.push('the mongo healthcheck must initiate replica set rs0');
    }
    if (!/isWritablePrimary/.test(check))
      problems.push('the mongo healthcheck must wait for a writable primary');
  }
  const redis = services['redis'];
  if (redis) {
    if (redis.image !== 'redis:7-alpine')
      problems.push(`redis image ${redis.image}, expected redis:7-alpine`);
    if (!/--appendonly yes/.test(commandOf(redis.command)))
      problems.push('redis must persist with AOF (--appendonly yes)');
    if (!(redis.volumes ?? []).map(volumeTarget).some((v) => v.target === '/data'))
      problems.push('redis /data needs a volume');
  }

  for (const [name, service] of Object.entries(services)) {
    const test = commandOf(service.healthcheck?.test);
    if (!test || service.healthcheck?.disable) problems.push(`${name}: no healthcheck`);
    const dependsOn = service.depends_on ?? {};
    if (Array.isArray(dependsOn)) {
      problems.push(`${name}: depends_on must use conditions (service_healthy)`);
    } else {
      for (const [dependency, { condition } = {}] of Object.entries(dependsOn)) {
        if (condition !== 'service_healthy')
          problems.push(`${name}: depends_on ${dependency} must be service_healthy`);
        if (!services[dependency]) problems.push(`${name}: depends_on unknown ${dependency}`);
      }
    }
    const published = (service.ports ?? []).length > 0;
    if (published && name !== 'gateway') problems.push(`${name}: only the gateway publishes a port`);
  }

  const gatewayPorts = (services['gateway']?.ports ?? []).map((port) =>
    typeof port === 'string' ? port.split(':').pop() : String(port.target),
  );
  if (!gatewayPorts.includes('8080')) problems.push('the gateway must publish container port 8080');
  if (gatewayPorts.some((port) => port !== '8080'))
    problems.push('the gateway publishes only the API (container port 8080)');

  const catalogs = new Map<string, string>();
  for (const [name, expected] of Object.entries(COMPOSE_APPS)) {
    const service = services[name];
    if (!service) continue;
    const env = environmentOf(service);
    const build = typeof service.build === 'string' ? { context: service.build } : service.build;
    if ((build?.dockerfile ?? 'Dockerfile') !== 'Dockerfile' || build?.target !== expected.app) {
      problems.push(`${name}: must build the Dockerfile's ${expected.app} target`);
    }
    if (!build?.context || path.resolve(REPO_ROOT, build.context) !== REPO_ROOT) {
      problems.push(`${name}: the build context must be the repository root`);
    }
    if (env['PORT'] !== String(expected.port)) problems.push(`${name}: PORT must be ${expected.port}`);
    const image = IMAGE.exec(service.image ?? '');
    if (!image || image[1] !== expected.app)
      problems.push(`${name}: image must be media-tracker/${expected.app}:\${IMAGE_TAG:-…}`);
    else if ((image[2] ?? image[3]) !== PACKAGE_VERSION) {
      problems.push(
        `${name}: the image tag defaults to ${image[2] ?? image[3]}, expected the package version ${PACKAGE_VERSION}`,
      );
    }
    // The metrics port: on the compose network for a Prometheus container, never published.
    const metricsPort = env['METRICS_PORT'] || DEFAULT_METRICS_PORT;
    if (!(service.expose ?? []).map(String).includes(metricsPort))
      problems.push(`${name}: must expose the metrics port ${metricsPort}`);
    const labels = labelsOf(service);
    if (labels['prometheus.io/scrape'] !== 'true' || labels['prometheus.io/port'] !== metricsPort) {
      problems.push(
        `${name}: labels prometheus.io/scrape 'true' and prometheus.io/port '${metricsPort}' say where to scrape`,
      );
    }
    const test = commandOf(service.healthcheck?.test);
    if (!new RegExp(`^CMD node -e .*127\\.0\\.0\\.1:${expected.port}/(readyz|livez)`).test(test)) {
      problems.push(
        `${name}: the healthcheck must probe /readyz or /livez on port ${expected.port} with node`,
      );
    }
    if (!env['INTERNAL_SECRET']) problems.push(`${name}: INTERNAL_SECRET not set`);
    if (!env['REDIS_URL']?.startsWith('redis://redis:'))
      problems.push(`${name}: REDIS_URL must point at the redis service`);
    if ('MONGO_URL' in env && !/replicaSet=rs0/.test(env['MONGO_URL'])) {
      problems.push(`${name}: MONGO_URL must name replica set rs0`);
    }
    if (expected.app === 'catalog-service') {
      const category = env['CATEGORY'];
      if (catalogs.has(category))
        problems.push(`${name}: CATEGORY ${category} also served by ${catalogs.get(category)}`);
      catalogs.set(category, name);
      if (env['ADVERTISED_URL'] !== `http://${name}:${expected.port}`) {
        problems.push(
          `${name}: ADVERTISED_URL must be http://${name}:${expected.port} (how the gateway reaches it)`,
        );
      }
      if (!env['INSTANCE_ID']) problems.push(`${name}: INSTANCE_ID must be set (distinct per container)`);
      if (env['REGISTRY_URL'] !== 'http://registry-service:3002')
        problems.push(`${name}: REGISTRY_URL must be the registry`);
      if (!('MONGO_URL' in env)) problems.push(`${name}: MONGO_URL not set`);
    }
  }
  const instanceIds = Object.keys(COMPOSE_APPS)
    .map((name) => services[name] && environmentOf(services[name])['INSTANCE_ID'])
    .filter(Boolean);
  if (new Set(instanceIds).size !== instanceIds.length) problems.push('INSTANCE_ID values must be distinct');
  for (const { category } of CATEGORIES) {
    if (!catalogs.has(category)) problems.push(`no catalog container with CATEGORY=${category}`);
  }

  const auth = services['auth-service'];
  if (auth) {
    const keyDir = environmentOf(auth)['JWT_KEY_DIR'];
    const mount = (auth.volumes ?? []).map(volumeTarget).find((volume) => volume.target === keyDir);
    if (!keyDir || !mount?.source || !(model.volumes && mount.source in model.volumes)) {
      problems.push('auth-service: JWT_KEY_DIR must be a named volume');
    }
  }
  return problems;
}

/** `${NAME...}` variables a compose file interpolates. */
export const interpolatedVariables = (composeText: string): string[] =>
  [...new Set([...composeText.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]))].sort();

/** Variables an env example documents, set (`NAME=`) or commented out (`# NAME=`). */
export const documentedVariables = (envExample: string): string[] =>
  [...new Set([...envExample.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]))].sort();

export interface ComposeRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs docker-compose against the repository's compose file with exactly the given .env content and a
 * clean environment, so neither a developer's own .env nor their shell variables change the outcome.
 */
export async function runCompose(
  binary: string,
  envFileContent: string,
  args: string[],
): Promise<ComposeRun> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compose-check-'));
  const envFile = path.join(dir, 'test.env');
  writeFileSync(envFile, envFileContent);
  try {
    const { stdout, stderr } = await run(
      binary,
      [
        '--project-directory',
        REPO_ROOT,
        '--env-file',
        envFile,
        '-f',
        path.join(REPO_ROOT, 'docker-compose.yml'),
        ...args,
      ],
      { cwd: dir, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir }, timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
