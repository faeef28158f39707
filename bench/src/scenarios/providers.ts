import type { ProviderReplay } from '@mt/provider-replay';
import { HttpClient } from '../load/http-client';
import type { BenchOptions } from '../options';
import { required } from '../required';
import { compareLatency, type UnloadedLatencyStats } from './compare';

export interface ProviderSearchResults {
  provider_query: string;
  catalog_query: string;
  /** Unloaded latency through the gateway, the two interleaved request by request. */
  provider: UnloadedLatencyStats;
  catalog: UnloadedLatencyStats;
  /** Requests the replay server received during the measurement: 0 proves every search came from the cache. */
  upstream_calls_while_measured: number;
}

/**
 * Provider search (warm cache) beside the catalog's own prefix search, in the same run and the same way: one
 * request at a time through the gateway. The provider is the local replay server, asked once to warm the
 * cache; the measurement must not reach it again.
 */
export async function measureProviderSearch(
  gatewayUrl: string,
  jwt: string,
  catalogPrefix: string,
  replay: ProviderReplay,
  options: BenchOptions,
  log: (text: string) => void,
): Promise<ProviderSearchResults> {
  const providerQuery = '/api/v1/movies/providers/search?q=alien';
  const catalogQuery = `/api/v1/movies?q=${encodeURIComponent(catalogPrefix)}&limit=20`;
  const request = { headers: { authorization: `Bearer ${jwt}` } };
  const client = new HttpClient(1);
  try {
    const warm = await client.json<{ data: unknown[] }>(`${gatewayUrl}${providerQuery}`, 200, request);
    if (warm.data.length === 0) throw new Error('the provider search found nothing at the replay server');
  } finally {
    client.close();
  }
  const before = replay.calls();
  log(`provider search (warm cache) beside catalog search '${catalogPrefix}'`);
  const latency = await compareLatency(
    [
      { name: 'provider', url: `${gatewayUrl}${providerQuery}`, request },
      { name: 'catalog', url: `${gatewayUrl}${catalogQuery}` },
    ],
    { repeats: options.repeats, rounds: options.latencyRounds },
  );
  return {
    provider_query: providerQuery,
    catalog_query: catalogQuery,
    provider: required(latency['provider'], 'provider search latency'),
    catalog: required(latency['catalog'], 'catalog search latency'),
    upstream_calls_while_measured: replay.calls() - before,
  };
}
