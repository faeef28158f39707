import { childPids, stackWatch } from '../load/cpu';
import type { BenchOptions } from '../options';
import { comparisonNginx, startNginx, type NginxInfo } from '../stack/nginx';
import { round } from '../stats';
import {
  compareLatency,
  compareThroughput,
  type ThroughputStats,
  type UnloadedLatencyStats,
  type Variant,
} from './compare';
import { required } from '../required';

export const ROUTE_1 = '/api/v1/movies?limit=20';

export interface ProxyResults {
  route: string;
  nginx: NginxInfo;
  throughput: Record<string, ThroughputStats>;
  unloaded_latency: Record<string, UnloadedLatencyStats>;
  /** gateway ÷ nginx and gateway ÷ direct throughput (medians). */
  ratios: { gateway_vs_nginx?: number; gateway_vs_direct: number; nginx_vs_direct?: number };
  /** Latency the hop adds to one unloaded request, vs the catalog reached directly. */
  added_ms: { gateway: { p50: number; p99: number }; nginx?: { p50: number; p99: number } };
}

/**
 * Route 1, the same public read three ways: straight at the catalog instance, through the gateway, and
 * through nginx as a plain reverse proxy. Throughput under a closed-loop load, and the unloaded latency
 * each hop adds.
 */
export async function measureProxyOverhead(
  urls: { catalog: string; gateway: string; catalogPort: number },
  pids: { catalog: number; gateway: number; bench: number; redisPort: string },
  options: BenchOptions,
  log: (text: string) => void,
): Promise<ProxyResults> {
  const { nginx, info: nginxInfo } = await comparisonNginx(log, (binary) => startNginx(binary, urls.catalogPort, ROUTE_1));
  try {
    const variants: Variant[] = [
      { name: 'direct', load: { url: `${urls.catalog}${ROUTE_1}` } },
      { name: 'gateway', load: { url: `${urls.gateway}${ROUTE_1}` } },
      ...(nginx ? [{ name: 'nginx', load: { url: `${nginx.url}${ROUTE_1}` } }] : []),
    ];
    log(
      `  throughput, ${options.connections} connections, ${options.durationS} s × ${options.repeats} per target`,
    );
    const watch = stackWatch(pids);
    if (nginx) watch['nginx'] = [nginx.pid, ...childPids(nginx.pid)];
    const throughput = await compareThroughput(variants, options, log, watch);
    log(`  unloaded latency, ${options.latencyRounds} requests × ${options.repeats} per target, interleaved`);
    const latency = await compareLatency(
      variants.map((variant) => ({ name: variant.name, url: variant.load.url })),
      { repeats: options.repeats, rounds: options.latencyRounds },
    );
    const unloaded = (name: string) => required(latency[name], `latency of ${name}`);
    const rps = (name: string) => required(throughput[name], `throughput of ${name}`).rps;
    const added = (name: string) => ({
      p50: round(unloaded(name).p50 - unloaded('direct').p50, 3),
      p99: round(unloaded(name).p99 - unloaded('direct').p99, 3),
    });
    return {
      route: ROUTE_1,
      nginx: nginxInfo,
      throughput,
      unloaded_latency: latency,
      ratios: {
        gateway_vs_direct: round(rps('gateway') / rps('direct'), 3),
        ...(nginx
          ? {
              gateway_vs_nginx: round(rps('gateway') / rps('nginx'), 3),
              nginx_vs_direct: round(rps('nginx') / rps('direct'), 3),
            }
          : {}),
      },
      added_ms: { gateway: added('gateway'), ...(nginx ? { nginx: added('nginx') } : {}) },
    };
  } finally {
    await nginx?.stop();
  }
}
