/**
 * What the gateway's building blocks cost per proxied request on their own (issue 21): the same GET to the
 * stub upstream (an 8 kB JSON page, no database) through the thinnest proxies that can be built with them,
 * side by side in one run, CPU µs per request of each proxy process from /proc. The rows climb from Node's
 * own HTTP client to the gateway's stack: http-proxy (the engine of http-proxy-middleware), the middleware
 * alone, the middleware inside an express app as express sets it up by default, and the same with the
 * server creating express's request/response prototypes (the configuration every service now runs,
 * libs/shared/http app-prototypes.ts), then with the request context every service keeps
 * (AsyncLocalStorage). Nothing of the gateway's own logic is in any row: the bench's hot-path rows measure it.
 *   node tools/build/build-app.mjs bench src/micro/proxy-floor.ts && node dist/bench/proxy-floor.js [--duration=5 --repeats=3]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import path from 'node:path';
import express from 'express';
import httpProxy from 'http-proxy';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { freePort } from '@mt/stack';
import { appPrototypes } from '@mt/http';
import { waitForChildServer } from '../stack/child-server';
import { compareThroughput, type Variant } from '../scenarios/compare';
import { startStubUpstream, STUB_ROUTES } from '../stack/stub-upstream';
import { readOptions } from '../options';
import { required } from '../required';

export const PROXIES = {
  'node http': 'http.request piped both ways, keep-alive agent',
  'http-proxy': 'http-proxy server.web(), the engine of http-proxy-middleware',
  'hpm': 'createProxyMiddleware (ejectPlugins) as the request handler',
  'express + hpm': 'an express app mounting the middleware, express defaults',
  'express + hpm, app prototypes': 'the same, the server creating express prototypes',
  'express + hpm, prototypes + ALS': 'the same, each request run in AsyncLocalStorage',
} as const;
export type ProxyName = keyof typeof PROXIES;
/** The configuration every service runs: the gateway's floor (the bench's hot-path rows measure it beside the gateway). */
export const GATEWAY_FLOOR: ProxyName = 'express + hpm, prototypes + ALS';

/** One proxy of the table, serving on `port` in front of the upstream: run in a child process of its own. */
function serveProxy(name: ProxyName, port: number, upstream: string): void {
  const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 256, scheduling: 'lifo' });
  const target = new URL(upstream);
  let handler: http.RequestListener;
  let options: http.ServerOptions = {};
  const middleware = () => createProxyMiddleware({ target: upstream, agent, ejectPlugins: true });
  if (name === 'node http') {
    handler = (req, res) => {
      const out = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(out);
    };
  } else if (name === 'http-proxy') {
    const server = httpProxy.createProxyServer({ target: upstream, agent });
    handler = (req, res) => server.web(req, res);
  } else if (name === 'hpm') {
    const proxy = middleware();
    handler = (req, res) => void proxy(req, res, () => res.end());
  } else {
    const app = express();
    const proxy = middleware();
    if (name.endsWith('ALS')) {
      const context = new AsyncLocalStorage<{ id: string }>();
      app.use((req, res, next) => context.run({ id: 'x' }, () => proxy(req, res, next)));
    } else app.use(proxy);
    handler = app;
    if (name !== 'express + hpm') options = appPrototypes(app);
  }
  const server = http.createServer({ ...options, keepAliveTimeout: 65_000 }, handler);
  server.listen(port, '127.0.0.1');
}

/** This file built, beside the bench's entry script (run.js and gateway-only.js both live in dist/bench/). */
export const floorScript = (): string =>
  path.join(path.dirname(required(process.argv[1], 'the bench script')), 'micro', 'proxy-floor.js');

/**
 * `script`: this file built (the bench's run.js starts it from dist/bench/micro/). `nodeOptions`: V8's
 * settings, those of the service it is a floor of. `profileDir`: the proxy writes a CPU profile there when
 * it ends, profiled as the services are (same preload and sampling).
 */
export async function startProxy(
  name: ProxyName,
  upstream: string,
  script = process.argv[1] as string,
  settings: { nodeOptions?: string; profileDir?: string } = {},
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const preload = path.join(path.dirname(script), '..', '..', '..', 'bench', 'tools', 'cpu-profile-preload.cjs');
  const profiling = settings.profileDir ? ['--require', preload] : [];
  const node = settings.nodeOptions?.split(/\s+/) ?? [];
  const child = spawn(process.execPath, [...node, ...profiling, script, `--serve=${name}`, `--port=${port}`, `--upstream=${upstream}`], {
    stdio: 'inherit',
    env: { ...process.env, ...(settings.profileDir ? { CPU_PROFILE_DIR: settings.profileDir } : {}) },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForChildServer(child, `${url}${STUB_ROUTES.public}`, name);
  return { url, child };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2).filter((arg) => !arg.startsWith('--serve')), process.env);
  const log = (text: string) => process.stdout.write(`${text}\n`);
  const stub = await startStubUpstream();
  const proxies = new Map<ProxyName, { url: string; child: ChildProcess }>();
  try {
    for (const name of Object.keys(PROXIES) as ProxyName[]) proxies.set(name, await startProxy(name, stub.url));
    const variants: Variant[] = [...proxies].map(([name, proxy]) => ({ name, load: { url: `${proxy.url}${STUB_ROUTES.public}` } }));
    const watch = Object.fromEntries([...proxies].map(([name, proxy]) => [name, [proxy.child.pid ?? -1]]));
    log(`GET ${STUB_ROUTES.public}, ${options.connections} connections, ${options.durationS} s × ${options.repeats} per proxy`);
    const throughput = await compareThroughput(variants, { ...options, warmupS: 2 }, log, watch);
    log('\n| Proxy | What | CPU µs per request (median; runs) | req/s |\n|---|---|---|---|');
    for (const name of Object.keys(PROXIES) as ProxyName[]) {
      const stats = required(throughput[name], name);
      const runs = stats.runs.map((run) => Math.round(((run.cpu_ms?.[name] ?? 0) * 1000) / Math.max(1, run.ok)));
      log(`| ${name} | ${PROXIES[name]} | **${stats.cpu_us_per_request?.[name]}** (${runs.join(', ')}) | ${stats.rps.toFixed(0)} |`);
    }
  } finally {
    for (const proxy of proxies.values()) proxy.child.kill('SIGTERM');
    await stub.stop();
  }
}

const serve = process.argv.find((arg) => arg.startsWith('--serve='));
if (serve) {
  // The bench ends a proxy with SIGTERM: exiting normally writes its CPU profile when it is profiled.
  process.on('SIGTERM', () => process.exit(0));
  const value = (name: string) => required(process.argv.find((arg) => arg.startsWith(`--${name}=`)), name).split('=')[1] as string;
  serveProxy(serve.slice('--serve='.length) as ProxyName, Number(value('port')), value('upstream'));
} else if (/proxy-floor\.js$/.test(process.argv[1] ?? '')) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`proxy-floor failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
