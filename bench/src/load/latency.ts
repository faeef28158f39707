import { summarise, type LatencySummary } from '../stats';
import { HttpClient, type HttpRequest } from './http-client';
import { required } from '../required';

export interface LatencyTarget {
  name: string;
  url: string;
  request?: HttpRequest;
  expectStatus?: number;
}

/**
 * Unloaded latency, one request at a time, the targets interleaved request by request (in a rotating
 * order), so that whatever else the machine is doing at a given moment hits every target alike. This is
 * what "added latency" of a hop means: the time it adds to one request, not the queueing of a saturated
 * machine.
 */
export async function interleavedLatency(
  targets: readonly LatencyTarget[],
  rounds: number,
  warmupRounds = 50,
): Promise<Record<string, LatencySummary>> {
  const client = new HttpClient(4);
  const samples = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  try {
    for (let round = 0; round < warmupRounds + rounds; round++) {
      for (let i = 0; i < targets.length; i++) {
        const target = required(targets[(round + i) % targets.length], 'latency target');
        const answer = await client.send(target.url, target.request);
        if (answer.status !== (target.expectStatus ?? 200)) {
          throw new Error(`${target.name}: ${answer.status} ${answer.body.slice(0, 200)}`);
        }
        if (round >= warmupRounds) samples.get(target.name)?.push(answer.ms);
      }
    }
  } finally {
    client.close();
  }
  return Object.fromEntries(
    targets.map((target) => [target.name, summarise(samples.get(target.name) ?? [])]),
  );
}

/** Samples GET `url` every `intervalMs` (one at a time) until stopped; returns every latency in ms. */
export function startProbeSampler(url: string, intervalMs: number): { stop: () => Promise<number[]> } {
  const client = new HttpClient(1);
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      try {
        const answer = await client.send(url, { timeoutMs: 5000 });
        latencies.push(answer.status === 200 ? answer.ms : Number.POSITIVE_INFINITY);
      } catch {
        latencies.push(Number.POSITIVE_INFINITY);
      }
      const wait = intervalMs - (Date.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      client.close();
      return latencies;
    },
  };
}
