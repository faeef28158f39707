import { HttpClient } from '../load/http-client';
import { databasePids, redisPids } from '../load/cpu';
import { counterValue, scrape } from '../load/metrics';
import type { BenchOptions } from '../options';
import { round } from '../stats';
import {
  compareLatency,
  compareThroughput,
  type ThroughputStats,
  type UnloadedLatencyStats,
  type Variant,
} from './compare';
import { ROUTE_1 } from './proxy';
import { required } from '../required';

export const LIST_ROUTE = '/api/v1/movies/list';

export interface AuthResults {
  routes: { jwt: string; pat: string; public: string };
  throughput: Record<string, ThroughputStats>;
  unloaded_latency: Record<string, UnloadedLatencyStats>;
  ratios: { pat_vs_jwt: number; jwt_vs_public: number };
  /** The gateway's PAT cache lookups during the measurements: the PAT path must be the cached one. */
  pat_cache: { hits: number; misses: number };
}

/**
 * What authentication costs at the gateway: the user's list (10 000 entries) with a login JWT (verified
 * locally: ES256 + the user's cut-off in Redis) and with a PAT (SHA-256, then the Redis cache; the cache
 * is warmed first, so this is the cached path), and a public catalog read without any credential.
 */
export async function measureAuthCost(
  urls: { gateway: string; gatewayMetrics: string },
  credentials: { jwt: string; pat: string },
  pids: { gateway: number; catalog: number; auth: number; redisPort: string },
  options: BenchOptions,
  log: (text: string) => void,
): Promise<AuthResults> {
  const gatewayUrl = urls.gateway;
  const jwtHeaders = { authorization: `Bearer ${credentials.jwt}` };
  const patHeaders = { authorization: `Bearer ${credentials.pat}` };
  const client = new HttpClient(1);
  try {
    // Fills the PAT cache (the first use introspects at the auth service) and checks both credentials work.
    await client.expect(`${gatewayUrl}${LIST_ROUTE}`, 200, { headers: patHeaders });
    await client.expect(`${gatewayUrl}${LIST_ROUTE}`, 200, { headers: jwtHeaders });
  } finally {
    client.close();
  }
  const variants: Variant[] = [
    { name: 'jwt', load: { url: `${gatewayUrl}${LIST_ROUTE}`, headers: jwtHeaders } },
    { name: 'pat', load: { url: `${gatewayUrl}${LIST_ROUTE}`, headers: patHeaders } },
    { name: 'public', load: { url: `${gatewayUrl}${ROUTE_1}` } },
  ];
  const lookups = async () => {
    const text = await scrape(urls.gatewayMetrics);
    const count = (result: string) => counterValue(text, 'gateway_pat_cache_lookups_total', { result });
    return { hits: count('hit'), misses: count('miss') + count('unavailable') };
  };
  const before = await lookups();
  log(
    `  throughput, ${options.connections} connections, ${options.durationS} s × ${options.repeats} per credential`,
  );
  const throughput = await compareThroughput(variants, options, log, {
    gateway: [pids.gateway],
    catalog: [pids.catalog],
    auth: [pids.auth],
    database: databasePids,
    redis: () => redisPids(pids.redisPort),
  });
  log(
    `  unloaded latency, ${options.latencyRounds} requests × ${options.repeats} per credential, interleaved`,
  );
  const latency = await compareLatency(
    variants.map((variant) => ({
      name: variant.name,
      url: variant.load.url,
      request: { headers: variant.load.headers },
    })),
    { repeats: options.repeats, rounds: options.latencyRounds },
  );
  const after = await lookups();
  const rps = (name: string) => required(throughput[name], `throughput of ${name}`).rps;
  const patCache = { hits: after.hits - before.hits, misses: after.misses - before.misses };
  log(`  PAT cache during the measurements: ${patCache.hits} hits, ${patCache.misses} misses`);
  return {
    pat_cache: patCache,
    routes: { jwt: `GET ${LIST_ROUTE}`, pat: `GET ${LIST_ROUTE}`, public: `GET ${ROUTE_1}` },
    throughput,
    unloaded_latency: latency,
    ratios: {
      pat_vs_jwt: round(rps('pat') / rps('jwt'), 3),
      jwt_vs_public: round(rps('jwt') / rps('public'), 3),
    },
  };
}
