import path from 'node:path';
import { findWorkspaceRoot, GATEWAY_NODE_OPTIONS, provideRedis } from '@mt/stack';
import { childPids, redisPids, type WatchList } from './load/cpu';
import { readOptions } from './options';
import { compareLatency, compareThroughput, FLOOR_WARMUP_S, type Variant } from './scenarios/compare';
import { startBenchStack, waitAllReady } from './stack/bench-stack';
import { dropBenchData } from './stack/bench-data';
import { findNginx, startNginx } from './stack/nginx';
import { registerStub, startStubUpstream, STUB_ROUTES } from './stack/stub-upstream';
import { waitForRoute } from './scenarios/hot-path';
import { floorScript, GATEWAY_FLOOR, startProxy } from './micro/proxy-floor';
import { stopChildServer } from './stack/child-server';
import { required } from './required';

/**
 * The gateway's own cost, isolated: it proxies to a stub upstream that answers every request with the same
 * 8 kB JSON page at once (no database), next to nginx in front of the same stub. Used to profile and tune
 * the gateway; `npm run bench` measures the real route through the catalog service.
 * Usage: node dist/bench/gateway-only.js [--duration=5 --repeats=3 --connections=16 --profile=gateway]
 */
async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  const rootDir = findWorkspaceRoot();
  const profileDir = path.join(rootDir, 'tmp', 'bench', 'profiles');
  const log = (text: string) => process.stdout.write(`${text}\n`);
  const mongoUrl = process.env['MONGO_URL'] ?? 'mongodb://127.0.0.1:1';
  const redis = await provideRedis(process.env);
  const stores = { mongoUrl, redisUrl: redis.url };
  const name = `${options.name}_gw`;
  const stub = await startStubUpstream();
  const bench = await startBenchStack({
    ...stores,
    name,
    rootDir: process.env['GW_ONLY_ROOT'] ?? rootDir,
    apps: ['registry-service', 'gateway'],
    profileApps: options.profileApps,
    profileDir,
  });
  // GW_ONLY_BASELINE=<dir>: a second registry + gateway from another build, measured interleaved with this
  // one (A/B on a busy machine: both see the same background load). GW_ONLY_BASELINE_NODE_OPTIONS: the
  // baseline gateway's V8 options, to A/B a flag on one build.
  const baselineRoot = process.env['GW_ONLY_BASELINE'];
  const baselineNodeOptions = process.env['GW_ONLY_BASELINE_NODE_OPTIONS'];
  const baseline = baselineRoot
    ? await startBenchStack({
        ...stores,
        name: `${name}_base`,
        rootDir: baselineRoot,
        apps: ['registry-service', 'gateway'],
        gatewayEnv: baselineNodeOptions ? { NODE_OPTIONS: baselineNodeOptions } : undefined,
      })
    : undefined;
  try {
    await waitAllReady(bench.stack, performance.now());
    if (baseline) await waitAllReady(baseline.stack, performance.now());
    const registration = await registerStub(
      bench.stack.process('registry-service').url,
      bench.stack.internalSecret,
      stub.url,
    );
    const baselineRegistration = baseline
      ? await registerStub(baseline.stack.process('registry-service').url, baseline.stack.internalSecret, stub.url)
      : undefined;
    const floor = await startProxy(GATEWAY_FLOOR, stub.url, floorScript(), {
      nodeOptions: GATEWAY_NODE_OPTIONS,
      profileDir: options.profileApps.includes('gateway') ? profileDir : undefined,
    });
    const nginxBinary = findNginx();
    const nginx = nginxBinary ? await startNginx(nginxBinary, stub.port, STUB_ROUTES.public) : undefined;
    try {
      const route = STUB_ROUTES.public;
      await waitForRoute(`${bench.gatewayUrl}${route}`);
      if (baseline) await waitForRoute(`${baseline.gatewayUrl}${route}`);
      const variants: Variant[] = [
        { name: 'direct', load: { url: `${stub.url}${route}` } },
        { name: 'gateway', load: { url: `${bench.gatewayUrl}${route}` } },
        ...(baseline ? [{ name: 'baseline', load: { url: `${baseline.gatewayUrl}${route}` } }] : []),
        ...(nginx ? [{ name: 'nginx', load: { url: `${nginx.url}${route}` } }] : []),
        { name: 'floor', load: { url: `${floor.url}${route}` } },
      ];
      const watch: WatchList = {
        gateway: [bench.stack.process('gateway').pid],
        ...(baseline ? { baseline: [baseline.stack.process('gateway').pid] } : {}),
        stub: [stub.pid],
        load_generator: [process.pid],
        redis: () => redisPids(new URL(redis.url).port || '6379'),
        ...(nginx ? { nginx: [nginx.pid, ...childPids(nginx.pid)] } : {}),
        floor: [required(floor.child.pid, 'floor pid')],
      };
      const throughput = await compareThroughput(variants, { ...options, warmupS: FLOOR_WARMUP_S }, log, watch);
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
      await registration.stop();
      await baselineRegistration?.stop();
      await nginx?.stop();
      await stopChildServer(floor.child);
    }
  } finally {
    await bench.stop();
    await baseline?.stop();
    await stub.stop();
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
