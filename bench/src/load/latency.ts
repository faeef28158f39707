import { summarise, type LatencySummary } from '../stats';
import { HttpClient, type HttpRequest } from './http-client';
import { required } from '../required';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ProbeWorkerData } from './probe-worker';

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

/**
 * Samples GET `url` every `intervalMs` (one at a time) until stopped; returns every latency in ms. The
 * sampling runs on a worker thread of its own: on the bench's thread it also measured the bench's pauses
 * (load generator, garbage collection of the seeded data; see "Figures behind decisions in the code").
 */
export function startProbeSampler(url: string, intervalMs: number): { stop: () => Promise<number[]> } {
  const data: ProbeWorkerData = { url, intervalMs };
  const worker = new Worker(path.join(__dirname, 'load', 'probe-worker.js'), { workerData: data });
  const latencies = new Promise<number[]>((resolve, reject) => {
    worker.once('message', (values: number[]) => resolve(values));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the probe sampler of ${url} exited (${code}) before it answered`)));
  });
  latencies.catch(() => undefined); // a failure is reported by stop()
  return {
    async stop() {
      worker.postMessage('stop');
      const values = await latencies;
      await worker.terminate();
      return values;
    },
  };
}
