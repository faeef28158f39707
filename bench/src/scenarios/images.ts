import { HttpClient } from '../load/http-client';
import { childPids, type WatchList } from '../load/cpu';
import type { BenchOptions } from '../options';
import { required } from '../required';
import { POSTER_BYTES, POSTER_PATH, type ImageOrigin } from '../stack/image-origin';
import { comparisonNginx, startStaticNginx, type NginxInfo } from '../stack/nginx';
import { round } from '../stats';
import { compareLatency, compareThroughput, type ThroughputStats, type UnloadedLatencyStats, type Variant } from './compare';

/** The poster through the gateway's image route: TMDB's path after `/t/p`. */
export const GATEWAY_IMAGE_ROUTE = `/api/v1/images/tmdb${POSTER_PATH.slice('/t/p'.length)}`;

export interface ImageResults {
  route: string;
  bytes: number;
  nginx: NginxInfo;
  /** Requests the stand-in image host received over the whole scenario: 1 when the cache works. */
  origin_requests: number;
  throughput: Record<string, ThroughputStats>;
  unloaded_latency: Record<string, UnloadedLatencyStats>;
  /** gateway ÷ nginx throughput (medians). */
  ratios: { gateway_vs_nginx?: number };
}

/**
 * One poster served from the gateway's image cache beside nginx serving the same file from disk (sendfile),
 * as an operator would serve static images: throughput under a closed-loop load and unloaded latency.
 */
export async function measureImageServing(
  urls: { gateway: string },
  origin: ImageOrigin,
  pids: { gateway: number; bench: number },
  options: BenchOptions,
  log: (text: string) => void,
): Promise<ImageResults> {
  const client = new HttpClient(1);
  try {
    // Fills the cache: every later request is a hit.
    await client.expect(`${urls.gateway}${GATEWAY_IMAGE_ROUTE}`, 200, { timeoutMs: 10_000 });
  } finally {
    client.close();
  }
  const { nginx, info: nginxInfo } = await comparisonNginx(log, (binary) => startStaticNginx(binary, origin.root, POSTER_PATH));
  try {
    const variants: Variant[] = [
      { name: 'gateway', load: { url: `${urls.gateway}${GATEWAY_IMAGE_ROUTE}` } },
      ...(nginx ? [{ name: 'nginx', load: { url: `${nginx.url}${POSTER_PATH}` } }] : []),
    ];
    log(`  throughput, ${options.connections} connections, ${options.durationS} s × ${options.repeats} per target`);
    const watch: WatchList = { gateway: [pids.gateway], load_generator: [pids.bench] };
    if (nginx) watch['nginx'] = [nginx.pid, ...childPids(nginx.pid)];
    const throughput = await compareThroughput(variants, options, log, watch);
    log(`  unloaded latency, ${options.latencyRounds} requests × ${options.repeats} per target, interleaved`);
    const latency = await compareLatency(
      variants.map((variant) => ({ name: variant.name, url: variant.load.url })),
      { repeats: options.repeats, rounds: options.latencyRounds },
    );
    const rps = (name: string) => required(throughput[name], `throughput of ${name}`).rps;
    return {
      route: GATEWAY_IMAGE_ROUTE,
      bytes: POSTER_BYTES,
      nginx: nginxInfo,
      origin_requests: origin.requests(),
      throughput,
      unloaded_latency: latency,
      ratios: nginx ? { gateway_vs_nginx: round(rps('gateway') / rps('nginx'), 3) } : {},
    };
  } finally {
    await nginx?.stop();
  }
}
