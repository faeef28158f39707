// `npm start`: the whole stack on this machine, one process per service (or all in one with --single-process),
// until Ctrl-C (SIGINT) or SIGTERM.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from './free-port';
import { describeExit, type ExitInfo, type ServiceProcess } from './service-process';
import { startStack, type Stack, type StackOptions } from './stack';
import { APPS, type AppName } from './workspace';

const USAGE = `Usage: node dist/libs/stack/cli.js [options]

Starts gateway, auth-service, registry-service, scrobble-service and one catalog-service per category from dist/
(build them with: npm run build). Stores: MONGO_URL / REDIS_URL when set, else a local mongod /
redis-server on a free port, else mongodb-memory-server for MongoDB. INTERNAL_SECRET: the
environment's (at least 32 characters), else a random one, kept in a file only you can read.

Options:
  --port <n>            gateway port (default 8080, or a free port if 8080 is taken; 0 = a free port)
  --free-ports          run the other services on free ports instead of 3001, 3002, 3011-3013, 3020,
                        and their metrics ports on free ports instead of 9464-9470
  --host <address>      bind address of every service (default 127.0.0.1)
  --categories <list>   catalog categories (default movies,tvshows,books)
  --apps <list>         start only these apps (default gateway,auth-service,registry-service,catalog-service,
                        scrobble-service)
  --db-prefix <p>       MongoDB database names <p>auth, <p>catalog_<category> and <p>scrobble (isolated stacks)
  --redis-prefix <p>    REDIS_KEY_PREFIX of every service (isolated stacks)
  --ready-timeout <ms>  how long to wait for every /readyz to answer 200 (default 60000)
  --status-file <path>  write the processes (name, url, metrics url, pid) as JSON once they are
                        spawned, again when ready with how to attach another instance
  --json-logs           print the services' JSON log lines as they are, prefixed with the process name
  --single-process      run every service in one Node.js process (less memory; also MT_SINGLE_PROCESS=1):
                        same ports, variables and logs, but one crash stops them all
  -h, --help            this text

Every other setting is an environment variable passed on to the services (see README.md).`;

interface CliArgs {
  options: StackOptions;
  readyTimeoutMs: number;
  statusFile?: string;
}

function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliArgs | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'free-ports': { type: 'boolean' },
      host: { type: 'string' },
      categories: { type: 'string' },
      apps: { type: 'string' },
      'db-prefix': { type: 'string' },
      'redis-prefix': { type: 'string' },
      'ready-timeout': { type: 'string' },
      'status-file': { type: 'string' },
      'json-logs': { type: 'boolean' },
      'single-process': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const integer = (name: string, text: string | undefined, max: number): number | undefined => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text) || Number(text) > max) throw new Error(`--${name} must be an integer from 0 to ${max}`);
    return Number(text);
  };
  const list = (text: string | undefined) => text?.split(',').map((item) => item.trim()).filter(Boolean);
  const apps = list(values.apps);
  const unknownApp = apps?.find((app) => !(APPS as readonly string[]).includes(app));
  if (unknownApp) throw new Error(`--apps: unknown app ${unknownApp} (known: ${APPS.join(', ')})`);
  const dbPrefix = values['db-prefix'];
  const options: StackOptions = {
    gatewayPort: integer('port', values.port, 65535),
    ports: values['free-ports'] ? 'free' : 'default',
    host: values.host,
    categories: list(values.categories),
    apps: apps as AppName[] | undefined,
    redisKeyPrefix: values['redis-prefix'],
    mongoDbNames: dbPrefix ? { auth: `${dbPrefix}auth`, catalog: (category) => `${dbPrefix}catalog_${category}`, scrobble: `${dbPrefix}scrobble` } : undefined,
    singleProcess: values['single-process'] || env['MT_SINGLE_PROCESS'] === '1',
    onLog: values['json-logs'] ? (line) => process.stdout.write(`[${line.process}] ${line.text}\n`) : undefined,
  };
  return {
    options,
    readyTimeoutMs: integer('ready-timeout', values['ready-timeout'], 600_000) ?? 60_000,
    statusFile: values['status-file'],
  };
}

const say = (text: string) => process.stdout.write(`${text}\n`);
const complain = (text: string) => process.stderr.write(`${text}\n`);

/** Where a generated INTERNAL_SECRET is kept for this run (a 0700 directory, a 0600 file), removed at exit. */
function keepGeneratedSecret(stack: Stack): string | undefined {
  if (stack.internalSecretSource !== 'generated') return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'mt-stack-'));
  const file = path.join(dir, 'internal-secret');
  writeFileSync(file, stack.internalSecret, { mode: 0o600 });
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return file;
}

interface AttachHint {
  app: 'catalog-service';
  /** The variables another instance needs besides INTERNAL_SECRET (which is never printed). */
  env: Record<string, string>;
  /** Where the INTERNAL_SECRET of this stack comes from. */
  internal_secret: string;
  command: string;
}

/** How to start another catalog instance that joins this stack: same stores, registry and secret. */
async function attachHint(stack: Stack, secretFile: string | undefined): Promise<AttachHint | undefined> {
  const catalog = stack.processes.find((service) => service.app === 'catalog-service');
  const registry = stack.processes.find((service) => service.app === 'registry-service');
  if (!catalog || !registry) return undefined;
  const category = catalog.name.replace(/^catalog-/, '');
  const taken = new Set(stack.processes.flatMap((service) => [service.port, service.metricsPort]));
  let port = await freePort();
  while (taken.has(port)) port = await freePort();
  const env: Record<string, string> = {
    CATEGORY: category,
    PORT: String(port),
    METRICS_PORT: '0',
    ADVERTISED_URL: `http://127.0.0.1:${port}`,
    REGISTRY_URL: registry.url,
    MONGO_URL: stack.mongoUrl,
    MONGO_DB_NAME: stack.mongoDbNames.catalog[category] ?? `catalog_${category}`,
    REDIS_URL: stack.redisUrl,
    ...(stack.redisKeyPrefix ? { REDIS_KEY_PREFIX: stack.redisKeyPrefix } : {}),
  };
  const quote = (value: string) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);
  const secret = secretFile ? `INTERNAL_SECRET="$(cat ${quote(secretFile)})" ` : '';
  return {
    app: 'catalog-service',
    env,
    internal_secret: secretFile ? `read from ${secretFile} (generated for this run, readable by you only)` : 'the one in your environment',
    command: `${secret}${Object.entries(env).map(([name, value]) => `${name}=${quote(value)}`).join(' ')} node dist/apps/catalog-service/main.js`,
  };
}

function writeStatus(file: string | undefined, stack: Stack, ready: boolean, attach: AttachHint | undefined): void {
  if (!file) return;
  const status = {
    ready,
    launcher_pid: process.pid,
    single_process: stack.singleProcess,
    gateway_url: stack.gatewayUrl,
    processes: stack.processes.map((s) => ({ name: s.name, app: s.app, url: s.url, port: s.port, metrics_url: s.metricsUrl, pid: s.pid })),
    attach,
  };
  writeFileSync(file, `${JSON.stringify(status, null, 2)}\n`);
}

function printSummary(stack: Stack, attach: AttachHint | undefined): void {
  const width = Math.max(...stack.processes.map((s) => s.name.length));
  const urlWidth = Math.max(...stack.processes.map((s) => s.url.length));
  say('');
  say('Media tracker is running.');
  if (stack.gatewayUrl) {
    say(`  App:   ${stack.gatewayUrl}/`);
    say(`  API:   ${stack.gatewayUrl}/api/v1`);
    say(`  Docs:  ${stack.gatewayUrl}/api/v1/docs`);
  }
  const hostPid = stack.singleProcess ? stack.processes[0]?.pid : undefined;
  say(
    hostPid === undefined
      ? '  Processes (API port, then the metrics port: /metrics and the detailed /health):'
      : `  Services, all in one process (pid ${hostPid}; API port, then the metrics port: /metrics and the detailed /health):`,
  );
  const order: AppName[] = ['gateway', 'auth-service', 'registry-service', 'catalog-service', 'scrobble-service'];
  const sorted = [...stack.processes].sort((a, b) => order.indexOf(a.app) - order.indexOf(b.app) || a.name.localeCompare(b.name));
  for (const s of sorted) say(`    ${s.name.padEnd(width)}  ${s.url.padEnd(urlWidth)}  ${s.metricsUrl ?? ''}  pid ${s.pid}`);
  if (attach) {
    say(`  Attach another instance (a second ${attach.env['CATEGORY']} catalog here; INTERNAL_SECRET: ${attach.internal_secret}):`);
    say(`    ${attach.command}`);
  }
  say('Press Ctrl-C to stop.');
  say('');
}

async function main(): Promise<number> {
  let args: CliArgs | 'help';
  try {
    args = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    complain(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args === 'help') {
    say(USAGE);
    return 0;
  }

  let stack: Stack | undefined;
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      if (!stack) return; // nothing was started
      say('Stopping every service...');
      await stack.stop();
      say('Stopped.');
    })());

  // Safety net: whatever ends this process, no service is left behind.
  process.on('exit', () => {
    for (const service of stack?.processes ?? []) if (service.running) service.kill('SIGKILL');
  });
  let signalled = false;
  let ready = false;
  let attach: AttachHint | undefined;
  const stopped = new Promise<number>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        complain(`${signal} again: killing every service now`);
        process.exit(130);
      }
      signalled = true;
      say(`\n${signal} received.`);
      stopAll().then(
        () => resolve(0),
        (error: Error) => {
          complain(`stopping failed: ${error.message}`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });

  try {
    stack = await startStack({
      ...args.options,
      onUnexpectedExit: (service: ServiceProcess, exit: ExitInfo) => {
        if (!ready) return; // before that, the failed start-up report names it
        const tail = service.recentOutput().slice(-5);
        complain(`${service.name} ${describeExit(exit)} unexpectedly${tail.length ? `:\n  ${tail.join('\n  ')}` : ''}`);
      },
    });
    if (signalled) {
      // The signal came while the stores were being provided: stop what has started since.
      await stopped;
      await stack.stop();
      return 0;
    }
    const secretFile = keepGeneratedSecret(stack);
    writeStatus(args.statusFile, stack, false, undefined);
    await Promise.race([stack.waitReady(args.readyTimeoutMs), stopped]);
    // Once every port is bound, so the example's port is one none of them took.
    if (!signalled) attach = await attachHint(stack, secretFile);
  } catch (error) {
    if (signalled) return stopped;
    complain(`\nThe stack did not start: ${(error as Error).message}\n`);
    await stopAll();
    return 1;
  }
  if (signalled) return stopped;
  ready = true;
  writeStatus(args.statusFile, stack, true, attach);
  printSummary(stack, attach);
  return stopped;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    complain(`launcher failed: ${error.message}`);
    process.exit(1);
  },
);
