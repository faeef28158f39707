import { HttpClient } from '../load/http-client';
import type { BenchOptions } from '../options';
import { round, summarise } from '../stats';
import { compareLatency, type UnloadedLatencyStats } from './compare';
import { required } from '../required';

export interface SearchAtSize {
  entries: number;
  prefix_query: string;
  prefix_matches: number;
  sorted_query: string;
  /** Unloaded latency through the gateway (medians of the repetitions' percentiles). */
  prefix: UnloadedLatencyStats;
  sorted: UnloadedLatencyStats;
  /** Prefixes never searched before at this size: their match counts are not cached yet. */
  first_time_prefix: { prefixes: number; p50: number; max: number };
}

interface PageAnswer {
  total: number;
  data: unknown[];
}

/**
 * Prefix search and a sorted listing at the current catalog size, through the gateway, one request at a
 * time (the latency of the query itself, not of a queue). Checks first that the service sees the expected
 * catalog: `total` must equal the number of generated titles the prefix matches.
 */
export async function measureSearch(
  gatewayUrl: string,
  size: number,
  prefix: { prefix: string; matches: number },
  firstTimePrefixes: readonly string[],
  options: BenchOptions,
  log: (text: string) => void,
): Promise<SearchAtSize> {
  const searchPath = `/api/v1/movies?q=${encodeURIComponent(prefix.prefix)}&limit=20`;
  const sortedPath = '/api/v1/movies?sort=year&limit=20';
  const client = new HttpClient(1);
  try {
    const search = await client.json<PageAnswer>(`${gatewayUrl}${searchPath}`, 200);
    if (search.total !== prefix.matches)
      throw new Error(`q=${prefix.prefix} at ${size}: total ${search.total}, expected ${prefix.matches}`);
    const sorted = await client.json<PageAnswer>(`${gatewayUrl}${sortedPath}`, 200);
    if (sorted.total !== size || sorted.data.length !== 20)
      throw new Error(`sort=year at ${size}: total ${sorted.total}, ${sorted.data.length} rows`);
    // Warm-up; the pause lets the service take a fresh sort-key sample after the catalog grew.
    for (let i = 0; i < 20; i++) {
      await client.expect(`${gatewayUrl}${searchPath}`, 200);
      await client.expect(`${gatewayUrl}${sortedPath}`, 200);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const firstTime: number[] = [];
    for (const other of firstTimePrefixes) {
      firstTime.push(
        (await client.expect(`${gatewayUrl}/api/v1/movies?q=${encodeURIComponent(other)}&limit=20`, 200)).ms,
      );
    }
    const firstTimeSummary = summarise(firstTime);

    const latency = await compareLatency(
      [
        { name: 'prefix', url: `${gatewayUrl}${searchPath}` },
        { name: 'sorted', url: `${gatewayUrl}${sortedPath}` },
      ],
      { repeats: options.repeats, rounds: options.latencyRounds },
    );
    const result: SearchAtSize = {
      entries: size,
      prefix_query: searchPath,
      prefix_matches: prefix.matches,
      sorted_query: sortedPath,
      prefix: required(latency['prefix'], 'prefix latency'),
      sorted: required(latency['sorted'], 'sorted latency'),
      first_time_prefix: {
        prefixes: firstTime.length,
        p50: round(firstTimeSummary.p50, 3),
        max: round(firstTimeSummary.max, 3),
      },
    };
    log(
      `    ${String(size).padStart(7)} entries: prefix p50 ${result.prefix.p50.toFixed(2)} / p95 ${result.prefix.p95.toFixed(2)} ms; ` +
        `sort=year p50 ${result.sorted.p50.toFixed(2)} / p95 ${result.sorted.p95.toFixed(2)} ms; first-time prefix p50 ${result.first_time_prefix.p50.toFixed(2)} ms`,
    );
    return result;
  } finally {
    client.close();
  }
}
