import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '@mt/stack';
import { HttpClient } from '../load/http-client';
import { waitForChildServer } from '../stack/child-server';
import { childPids, type WatchList } from '../load/cpu';
import type { BenchOptions } from '../options';
import { required } from '../required';
import { IMAGE_FLOORS, type ImageFloorName } from '../stack/image-floor';
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
  /** gateway ÷ nginx throughput (medians), and each floor's ÷ nginx: what Node alone reaches on this machine. */
  ratios: { gateway_vs_nginx?: number; floors_vs_nginx?: Partial<Record<ImageFloorName, number>> };
}

/** One of the image floors (bench/src/stack/image-floor.ts) serving the poster file from memory, in a process of its own. */
async function startImageFloor(name: ImageFloorName, file: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const script = path.join(path.dirname(required(process.argv[1], 'the bench script')), 'stack', 'image-floor.js');
  const child = spawn(process.execPath, [script, `--port=${port}`, `--file=${file}`, `--server=${IMAGE_FLOORS[name]}`], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  await waitForChildServer(child, `${url}${POSTER_PATH}`, `the image floor '${name}'`);
  return { url, child };
}

/**
 * One poster served from the gateway's image cache beside nginx serving the same file from disk (sendfile),
 * as an operator would serve static images: throughput under a closed-loop load and unloaded latency. The
 * image floors take their turns beside them, so the run also says what Node's own HTTP server reaches here.
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
  const floors = new Map<ImageFloorName, { url: string; child: ChildProcess }>();
  try {
    for (const name of Object.keys(IMAGE_FLOORS) as ImageFloorName[]) floors.set(name, await startImageFloor(name, path.join(origin.root, POSTER_PATH)));
    const variants: Variant[] = [
      { name: 'gateway', load: { url: `${urls.gateway}${GATEWAY_IMAGE_ROUTE}` } },
      ...(nginx ? [{ name: 'nginx', load: { url: `${nginx.url}${POSTER_PATH}` } }] : []),
      ...[...floors].map(([name, floor]) => ({ name, load: { url: `${floor.url}${POSTER_PATH}` } })),
    ];
    log(`  throughput, ${options.connections} connections, ${options.durationS} s × ${options.repeats} per target`);
    const watch: WatchList = { gateway: [pids.gateway], load_generator: [pids.bench] };
    if (nginx) watch['nginx'] = [nginx.pid, ...childPids(nginx.pid)];
    for (const [name, floor] of floors) watch[name] = [floor.child.pid ?? -1];
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
      ratios: nginx
        ? {
            gateway_vs_nginx: round(rps('gateway') / rps('nginx'), 3),
            floors_vs_nginx: Object.fromEntries([...floors.keys()].map((name) => [name, round(rps(name) / rps('nginx'), 3)])),
          }
        : {},
    };
  } finally {
    for (const floor of floors.values()) floor.child.kill('SIGTERM');
    await nginx?.stop();
  }
}
