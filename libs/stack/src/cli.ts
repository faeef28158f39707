// `npm start`: the whole stack on this machine, one process per service, until Ctrl-C (SIGINT) or SIGTERM.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { describeExit, type ExitInfo, type ServiceProcess } from './service-process';
import { startStack, type Stack, type StackOptions } from './stack';
import { APPS, type AppName } from './workspace';

const USAGE = `Usage: node dist/libs/stack/cli.js [options]

Starts gateway, auth-service, registry-service and one catalog-service per category from dist/
(build them with: npm run build). Stores: MONGO_URL / REDIS_URL when set, else a local mongod /
redis-server on a free port, else mongodb-memory-server for MongoDB.

Options:
  --port <n>            gateway port (default 8080, or a free port if 8080 is taken; 0 = a free port)
  --free-ports          run the other services on free ports instead of 3001, 3002, 3011-3013
  --host <address>      bind address of every service (default 127.0.0.1)
  --categories <list>   catalog categories (default movies,tvshows,books)
  --apps <list>         start only these apps (default gateway,auth-service,registry-service,catalog-service)
  --db-prefix <p>       MongoDB database names <p>auth and <p>catalog_<category> (isolated stacks)
  --redis-prefix <p>    REDIS_KEY_PREFIX of every service (isolated stacks)
  --ready-timeout <ms>  how long to wait for every /readyz to answer 200 (default 60000)
  --status-file <path>  write the processes (name, url, pid) as JSON once they are spawned, again when ready
  --json-logs           print the services' JSON log lines as they are, prefixed with the process name
  -h, --help            this text

Every other setting is an environment variable passed on to the services (see README.md).`;

interface CliArgs {
  options: StackOptions;
  readyTimeoutMs: number;
  statusFile?: string;
}

function parseCli(argv: string[]): CliArgs | 'help' {
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
    mongoDbNames: dbPrefix ? { auth: `${dbPrefix}auth`, catalog: (category) => `${dbPrefix}catalog_${category}` } : undefined,
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

function writeStatus(file: string | undefined, stack: Stack, ready: boolean): void {
  if (!file) return;
  const status = {
    ready,
    launcher_pid: process.pid,
    gateway_url: stack.gatewayUrl,
    processes: stack.processes.map((s) => ({ name: s.name, app: s.app, url: s.url, port: s.port, pid: s.pid })),
  };
  writeFileSync(file, `${JSON.stringify(status, null, 2)}\n`);
}

function printSummary(stack: Stack): void {
  const width = Math.max(...stack.processes.map((s) => s.name.length));
  say('');
  say('Media tracker is running.');
  if (stack.gatewayUrl) {
    say(`  App:   ${stack.gatewayUrl}/`);
    say(`  API:   ${stack.gatewayUrl}/api/v1`);
    say(`  Docs:  ${stack.gatewayUrl}/api/v1/docs`);
  }
  say('  Processes:');
  const order: AppName[] = ['gateway', 'auth-service', 'registry-service', 'catalog-service'];
  const sorted = [...stack.processes].sort((a, b) => order.indexOf(a.app) - order.indexOf(b.app) || a.name.localeCompare(b.name));
  for (const s of sorted) say(`    ${s.name.padEnd(width)}  ${s.url}  pid ${s.pid}`);
  say('Press Ctrl-C to stop.');
  say('');
}

async function main(): Promise<number> {
  let args: CliArgs | 'help';
  try {
    args = parseCli(process.argv.slice(2));
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
      say('Stopping every service...');
      await stack?.stop();
      say('Stopped.');
    })());

  // Safety net: whatever ends this process, no service is left behind.
  process.on('exit', () => {
    for (const service of stack?.processes ?? []) if (service.running) service.kill('SIGKILL');
  });
  let signalled = false;
  let ready = false;
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
    writeStatus(args.statusFile, stack, false);
    await Promise.race([stack.waitReady(args.readyTimeoutMs), stopped]);
  } catch (error) {
    if (signalled) return stopped;
    complain(`\nThe stack did not start: ${(error as Error).message}\n`);
    await stopAll();
    return 1;
  }
  if (signalled) return stopped;
  ready = true;
  writeStatus(args.statusFile, stack, true);
  printSummary(stack);
  return stopped;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    complain(`launcher failed: ${error.message}`);
    process.exit(1);
  },
);
