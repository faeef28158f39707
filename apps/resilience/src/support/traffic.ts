import { NoAnswerError, type Answer } from './http-client';

export interface TrafficSample {
  label: string;
  /** 0 when no HTTP answer came (refused, reset, timed out). */
  status: number;
  ms: number;
  /** Milliseconds since the traffic started. */
  at: number;
  code?: string;
}

export interface TrafficOptions {
  /** Requests started per second (paced: one every 1000/rate ms). */
  rate: number;
  /** At most this many requests in flight; a tick that finds them all busy is skipped and counted. */
  maxInFlight: number;
  /** Stops starting requests after this long (or when `signal` aborts), then waits for those in flight. */
  durationMs: number;
  signal?: AbortSignal;
  /** Makes request number `i`; its label names the operation in the figures. */
  next: (i: number) => { label: string; send: () => Promise<Answer> };
}

export interface TrafficResult {
  samples: TrafficSample[];
  started: number;
  skipped: number;
  durationMs: number;
}

/** Paced traffic with bounded concurrency: the rate is steady, the run bounded in time and in requests. */
export async function runTraffic(options: TrafficOptions): Promise<TrafficResult> {
  const samples: TrafficSample[] = [];
  const inFlight = new Set<Promise<void>>();
  const t0 = performance.now();
  const interval = 1000 / options.rate;
  let started = 0;
  let skipped = 0;
  for (let i = 0; ; i++) {
    const due = t0 + i * interval;
    const now = performance.now();
    if (due - t0 >= options.durationMs || options.signal?.aborted) break;
    if (due > now) await new Promise((resolve) => setTimeout(resolve, due - now));
    if (options.signal?.aborted) break;
    if (inFlight.size >= options.maxInFlight) {
      skipped++;
      continue;
    }
    const { label, send } = options.next(i);
    const at = performance.now() - t0;
    started++;
    const request: Promise<void> = send()
      .then((answer) => {
        const code = (answer.body as { code?: unknown } | undefined)?.code;
        samples.push({
          label,
          status: answer.status,
          ms: answer.ms,
          at,
          code: typeof code === 'string' ? code : undefined,
        });
      })
      .catch((error: unknown) => {
        samples.push({
          label,
          status: 0,
          ms: error instanceof NoAnswerError ? error.ms : performance.now() - t0 - at,
          at,
          code: (error as Error).message,
        });
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  }
  await Promise.all(inFlight);
  return { samples, started, skipped, durationMs: performance.now() - t0 };
}

export function countByStatus(samples: readonly TrafficSample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const sample of samples) counts[sample.status] = (counts[sample.status] ?? 0) + 1;
  return counts;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
