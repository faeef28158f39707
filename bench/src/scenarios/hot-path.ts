import { GATEWAY_NODE_OPTIONS } from '@mt/stack';
import { floorScript, GATEWAY_FLOOR, startProxy } from '../micro/proxy-floor';
import { stopChildServer } from '../stack/child-server';
import { childPids, cpuMeter, redisPids, type WatchList } from '../load/cpu';
import { HttpClient } from '../load/http-client';
import type { BenchOptions } from '../options';
import { required } from '../required';
import { ensureNginx, startNginx, type Nginx } from '../stack/nginx';
import { registerStub, startStubUpstream, STUB_ROUTES } from '../stack/stub-upstream';
import { round } from '../stats';
import {
  compareLatency,
  compareThroughput,
  FLOOR_WARMUP_S,
  type ThroughputStats,
  type UnloadedLatencyStats,
  type Variant,
} from './compare';

export interface HotPathResults {
  routes: { public: string; scoped: string };
  nginx: { version: string } | { skipped: string };
  /** The gateway's CPU while idle just before the runs: part of every run's CPU, subtracted in `net`. */
  gateway_idle_cpu_ms_per_s: number;
  /**
   * Gateway CPU µs per proxied request: raw (/proc over the run ÷ 2xx answers), net of the idle rate, and
   * above the floor's raw figure of the same run (issue 42: the gateway's own work).
   */
  gateway_cpu_us: Record<'public' | 'jwt' | 'pat', { raw: number; net: number; above_floor: number }>;
  /** Issue 42: CPU µs per request of the gateway's building blocks alone (proxy-floor.ts, `GATEWAY_FLOOR`) in front of the same stub. */
  floor_cpu_us: number;
  throughput: Record<string, ThroughputStats>;
  unloaded_latency: Record<string, UnloadedLatencyStats>;
  ratios: { gateway_vs_nginx?: number; gateway_vs_direct: number };
  added_ms: { gateway: { p50: number; p99: number }; nginx?: { p50: number; p99: number } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The gateway's own cost per proxied request (issue 21), isolated from the database: a stub upstream that
 * answers at once is registered in the running stack as one more service, and the same reads go to it
 * directly, through nginx, and through the gateway anonymously (public route), with the login JWT and with
 * the cached PAT (a route that needs `list:read`). At thousands of requests per second the gateway's idle
 * timers are noise; its idle rate is measured anyway and subtracted for the `net` figures.
 */
export async function measureGatewayHotPath(
  /** `floorProfileDir`: the floor writes a CPU profile there (beside the gateway's, `--profile=gateway`). */
  stack: { gateway: string; registry: string; internalSecret: string; floorProfileDir?: string },
  credentials: { jwt: string; pat: string },
  pids: { gateway: number; bench: number; redisPort: string },
  options: BenchOptions,
  log: (text: string) => void,
): Promise<HotPathResults> {
  const stub = await startStubUpstream();
  const registration = await registerStub(stack.registry, stack.internalSecret, stub.url);
  const floor = await startProxy(GATEWAY_FLOOR, stub.url, floorScript(), { nodeOptions: GATEWAY_NODE_OPTIONS, profileDir: stack.floorProfileDir });
  let nginx: Nginx | undefined;
  let nginxInfo: HotPathResults['nginx'];
  try {
    await waitForRoute(`${stack.gateway}${STUB_ROUTES.public}`);
    const found = ensureNginx(log);
    if ('missing' in found) nginxInfo = { skipped: `${found.missing}: the nginx row is skipped` };
    else {
      try {
        nginx = await startNginx(found.binary, stub.port, STUB_ROUTES.public);
        nginxInfo = { version: nginx.version };
      } catch (error) {
        nginxInfo = { skipped: `nginx did not start: ${(error as Error).message}` };
      }
    }
    if ('skipped' in nginxInfo) log(`  ${nginxInfo.skipped}`);
    const jwt = { authorization: `Bearer ${credentials.jwt}` };
    const pat = { authorization: `Bearer ${credentials.pat}` };
    const variants: Variant[] = [
      { name: 'direct', load: { url: `${stub.url}${STUB_ROUTES.public}` } },
      { name: 'gateway_public', load: { url: `${stack.gateway}${STUB_ROUTES.public}` } },
      { name: 'gateway_jwt', load: { url: `${stack.gateway}${STUB_ROUTES.scoped}`, headers: jwt } },
      { name: 'gateway_pat', load: { url: `${stack.gateway}${STUB_ROUTES.scoped}`, headers: pat } },
      ...(nginx ? [{ name: 'nginx', load: { url: `${nginx.url}${STUB_ROUTES.public}` } }] : []),
      { name: 'floor', load: { url: `${floor.url}${STUB_ROUTES.public}` } },
    ];
    const watch: WatchList = {
      gateway: [pids.gateway],
      stub: [stub.pid],
      load_generator: [pids.bench],
      redis: () => redisPids(pids.redisPort),
      floor: [required(floor.child.pid, 'floor pid')],
    };
    if (nginx) watch['nginx'] = [nginx.pid, ...childPids(nginx.pid)];

    const idle = cpuMeter({ gateway: [pids.gateway] });
    await sleep(3000);
    const idleMsPerS = round((idle.stop()['gateway'] ?? 0) / 3, 1);
    log(`  gateway idle CPU ${idleMsPerS} ms/s`);
    log(`  throughput, ${options.connections} connections, ${options.durationS} s × ${options.repeats} per target`);
    const throughput = await compareThroughput(variants, { ...options, warmupS: FLOOR_WARMUP_S }, log, watch);
    log(`  unloaded latency, ${options.latencyRounds} requests × ${options.repeats} per target, interleaved`);
    const latency = await compareLatency(
      variants.map((variant) => ({ name: variant.name, url: variant.load.url, request: { headers: variant.load.headers } })),
      { repeats: options.repeats, rounds: options.latencyRounds },
    );
    const stats = (name: string) => required(throughput[name], `throughput of ${name}`);
    const floorCpu = stats('floor').cpu_us_per_request?.['floor'] ?? Number.NaN;
    const cpu = (name: string) => {
      const t = stats(name);
      const raw = t.cpu_us_per_request?.['gateway'] ?? Number.NaN;
      // The idle share of a run: idle ms/s × run seconds ÷ requests = idle ms/s × 1000 ÷ req/s (µs).
      return { raw, net: round(raw - (idleMsPerS * 1000) / t.rps, 0), above_floor: round(raw - floorCpu, 0) };
    };
    const unloaded = (name: string) => required(latency[name], `latency of ${name}`);
    const added = (name: string) => ({
      p50: round(unloaded(name).p50 - unloaded('direct').p50, 3),
      p99: round(unloaded(name).p99 - unloaded('direct').p99, 3),
    });
    return {
      routes: { public: `GET ${STUB_ROUTES.public}`, scoped: `GET ${STUB_ROUTES.scoped}` },
      nginx: nginxInfo,
      gateway_idle_cpu_ms_per_s: idleMsPerS,
      floor_cpu_us: floorCpu,
      gateway_cpu_us: { public: cpu('gateway_public'), jwt: cpu('gateway_jwt'), pat: cpu('gateway_pat') },
      throughput,
      unloaded_latency: latency,
      ratios: {
        gateway_vs_direct: round(stats('gateway_public').rps / stats('direct').rps, 3),
        ...(nginx ? { gateway_vs_nginx: round(stats('gateway_public').rps / stats('nginx').rps, 3) } : {}),
      },
      added_ms: { gateway: added('gateway_public'), ...(nginx ? { nginx: added('nginx') } : {}) },
    };
  } finally {
    await stopChildServer(floor.child);
    await nginx?.stop();
    await registration.stop();
    await stub.stop();
  }
}

/** The gateway routes a new service once the registry's change reaches it (pub/sub, else its 5 s refresh). */
export async function waitForRoute(url: string): Promise<void> {
  const client = new HttpClient(1);
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await client.send(url, { timeoutMs: 2000 }).catch(() => undefined);
      if (answer?.status === 200) return;
      if (Date.now() > deadline) throw new Error(`the gateway did not route ${url} within 20 s (last: ${answer?.status})`);
      await sleep(200);
    }
  } finally {
    client.close();
  }
}
