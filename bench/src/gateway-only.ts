import { spawn } from 'node:child_process';
import path from 'node:path';
import { INTERNAL_PATHS } from '@mt/contracts';
import { findWorkspaceRoot, freePort, provideRedis } from '@mt/stack';
import { childPids, redisPids, type WatchList } from './load/cpu';
import { HttpClient } from './load/http-client';
import { readOptions } from './options';
import { compareLatency, compareThroughput, type Variant } from './scenarios/compare';
import { startBenchStack, waitAllReady, waitForCategories } from './stack/bench-stack';
import { dropBenchData } from './stack/bench-data';
import { findNginx, startNginx } from './stack/nginx';
import { required } from './required';

/**
 * The gateway's own cost, isolated: it proxies to a stub upstream that answers every request with the same
 * 8 kB JSON page at once (no database), next to nginx in front of the same stub. Used to profile and tune
 * the gateway; `npm run bench` measures the real route through the catalog service.
 * Usage: node dist/bench/gateway-only.js [--duration=5 --repeats=3 --connections=16 --profile=gateway]
 */
const STUB = `
const http = require('node:http');
const page = JSON.stringify({ data: Array.from({ length: 20 }, (_, i) => ({ id: String(i).padStart(24, '0'), title: 'Some Title ' + i,
  year: 1990 + i, description: 'A quiet film about two brothers who discover a secret.', genres: ['Drama', 'Comedy'],
  created_by: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', runtime_minutes: 120,
  director: 'Ana Costa' })), page: 1, limit: 20, total: 100000, total_pages: 5000 });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/readyz') return res.end('{"status":"healthy"}');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(page) });
    res.end(page);
  });
});
server.keepAliveTimeout = 65000;
let connections = 0, requests = 0;
server.on('connection', () => connections++);
server.on('request', () => requests++);
process.on('SIGTERM', () => { process.stderr.write('stub: ' + connections + ' connections, ' + requests + ' requests\\n'); process.exit(0); });
server.listen(Number(process.argv[1]), '127.0.0.1');
`;

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  const rootDir = findWorkspaceRoot();
  const log = (text: string) => process.stdout.write(`${text}\n`);
  const mongoUrl = process.env['MONGO_URL'] ?? 'mongodb://127.0.0.1:1';
  const redis = await provideRedis(process.env);
  const stores = { mongoUrl, redisUrl: redis.url };
  const name = 'bench_gw';
  const stubPort = await freePort();
  const stub = spawn(process.execPath, ['-e', STUB, String(stubPort)], { stdio: 'inherit' });
  const stubUrl = `http://127.0.0.1:${stubPort}`;
  const bench = await startBenchStack({
    ...stores,
    name,
    rootDir: process.env['GW_ONLY_ROOT'] ?? rootDir,
    apps: ['registry-service', 'gateway'],
    profileApps: options.profileApps,
    profileDir: path.join(rootDir, 'tmp', 'bench', 'profiles'),
  });
  const client = new HttpClient(2);
  try {
    await waitAllReady(bench.stack, performance.now());
    const registry = bench.stack.process('registry-service').url;
    const register = () =>
      client.expect(`${registry}${INTERNAL_PATHS.registryInstance('stub-1')}`, 200, {
        method: 'PUT',
        headers: { 'x-mt-internal-secret': bench.stack.internalSecret },
        json: {
          category: {
            id: 'movies',
            name: 'movies',
            display_name: 'Movies',
            description: 'stub',
            endpoint: '/api/v1/movies',
            icon: 'film',
          },
          base_url: stubUrl,
          version: 'stub',
          openapi: { paths: {}, components: {} },
        },
      });
    await register().catch(() => register());
    const heartbeat = setInterval(() => void register().catch(() => undefined), 8000);
    await waitForCategories(bench.gatewayUrl, 1);
    const nginxBinary = findNginx();
    const nginx = nginxBinary
      ? await startNginx(nginxBinary, stubPort, '/api/v1/movies?limit=20')
      : undefined;
    try {
      const route = '/api/v1/movies?limit=20';
      const variants: Variant[] = [
        { name: 'direct', load: { url: `${stubUrl}${route}` } },
        { name: 'gateway', load: { url: `${bench.gatewayUrl}${route}` } },
        ...(nginx ? [{ name: 'nginx', load: { url: `${nginx.url}${route}` } }] : []),
      ];
      const watch: WatchList = {
        gateway: [bench.stack.process('gateway').pid],
        stub: [stub.pid ?? -1],
        load_generator: [process.pid],
        redis: () => redisPids(new URL(redis.url).port || '6379'),
        ...(nginx ? { nginx: [nginx.pid, ...childPids(nginx.pid)] } : {}),
      };
      const throughput = await compareThroughput(variants, options, log, watch);
      const latency = await compareLatency(
        variants.map((variant) => ({ name: variant.name, url: variant.load.url })),
        { repeats: options.repeats, rounds: options.latencyRounds },
      );
      for (const variant of variants) {
        const t = required(throughput[variant.name], variant.name);
        const l = required(latency[variant.name], variant.name);
        log(
          `${variant.name.padEnd(8)} ${t.rps.toFixed(0).padStart(6)} req/s  load p50 ${t.p50.toFixed(2)} p99 ${t.p99.toFixed(2)}  ` +
            `1-at-a-time p50 ${l.p50.toFixed(3)} p99 ${l.p99.toFixed(3)} ms  CPU µs/req ${JSON.stringify(t.cpu_us_per_request)}`,
        );
      }
      const rps = (name: string) => required(throughput[name], name).rps;
      if (nginx) log(`gateway ÷ nginx ${((rps('gateway') / rps('nginx')) * 100).toFixed(1)} %`);
    } finally {
      clearInterval(heartbeat);
      await nginx?.stop();
    }
  } finally {
    client.close();
    await bench.stop();
    stub.kill();
    await dropBenchData(stores, name).catch(() => undefined);
    await redis.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`gateway-only failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
