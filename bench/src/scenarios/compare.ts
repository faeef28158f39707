import { cpuMeter, type WatchList } from '../load/cpu';
import { interleavedLatency, type LatencyTarget } from '../load/latency';
import { runLoad, requireClean, type LoadResult, type LoadSpec } from '../load/throughput';
import { median, round, type LatencySummary } from '../stats';
import { required } from '../required';

/** One variant of a side-by-side comparison: the same request against different targets. */
export interface Variant {
  name: string;
  load: Omit<LoadSpec, 'connections' | 'durationS'>;
  latency?: LatencyTarget;
}

export interface ThroughputStats {
  /** Median of the repetitions. */
  rps: number;
  p50: number;
  p99: number;
  /**
   * CPU time (user + system, from /proc) each watched process spent per successful request, median of the
   * runs, in µs: unlike throughput, this hardly depends on what else the machine is doing.
   */
  cpu_us_per_request?: Record<string, number>;
  runs: Array<{ rps: number; p50: number; p99: number; ok: number; cpu_ms?: Record<string, number> }>;
}

export interface UnloadedLatencyStats {
  p50: number;
  p95: number;
  p99: number;
  runs: Array<Pick<LatencySummary, 'p50' | 'p95' | 'p99' | 'count'>>;
}

const rotate = <T>(items: readonly T[], by: number): T[] =>
  items.map((_, i) => items[(i + by) % items.length] as T);

/**
 * The warm-up before each run when a process is judged against its floor (CPU per request side by side): a
 * process that sat idle while the others ran has had its young generation shrunk by V8 and grows it back
 * under the new load, which a one-second warm-up leaves to the first measured run.
 */
export const FLOOR_WARMUP_S = 3;

/**
 * Closed-loop throughput of every variant, repeated; the variants take turns (A B C, B C A, C A B) so a
 * burst of activity elsewhere on the machine hits them alike. Each run is preceded by a short warm-up.
 */
export async function compareThroughput(
  variants: readonly Variant[],
  settings: { repeats: number; durationS: number; connections: number; warmupS?: number },
  log: (text: string) => void,
  watch: WatchList = {},
): Promise<Record<string, ThroughputStats>> {
  const runs = new Map<string, Array<LoadResult & { cpuMs: Record<string, number> }>>(
    variants.map((variant) => [variant.name, []]),
  );
  for (let rep = 0; rep < settings.repeats; rep++) {
    for (const variant of rotate(variants, rep)) {
      const spec = { ...variant.load, connections: settings.connections };
      requireClean(`${variant.name} (warm-up)`, await runLoad({ ...spec, durationS: settings.warmupS ?? 1 }));
      const meter = cpuMeter(watch);
      const result = requireClean(variant.name, await runLoad({ ...spec, durationS: settings.durationS }));
      runs.get(variant.name)?.push({ ...result, cpuMs: meter.stop() });
      log(
        `    ${variant.name.padEnd(18)} run ${rep + 1}: ${result.rps.toFixed(0)} req/s, p50 ${result.latency.p50.toFixed(2)} ms, p99 ${result.latency.p99.toFixed(2)} ms`,
      );
    }
  }
  return Object.fromEntries(
    variants.map((variant) => {
      const results = runs.get(variant.name) ?? [];
      const cpu = Object.keys(watch).length
        ? Object.fromEntries(
            Object.keys(watch).map((name) => [
              name,
              round(median(results.map((r) => ((r.cpuMs[name] ?? 0) * 1000) / r.ok)), 0),
            ]),
          )
        : undefined;
      return [
        variant.name,
        {
          rps: round(median(results.map((r) => r.rps)), 1),
          p50: round(median(results.map((r) => r.latency.p50)), 3),
          p99: round(median(results.map((r) => r.latency.p99)), 3),
          ...(cpu ? { cpu_us_per_request: cpu } : {}),
          runs: results.map((r) => ({
            rps: round(r.rps, 1),
            p50: round(r.latency.p50, 3),
            p99: round(r.latency.p99, 3),
            ok: r.ok,
            ...(cpu
              ? {
                  cpu_ms: Object.fromEntries(
                    Object.entries(r.cpuMs).map(([name, ms]) => [name, round(ms, 0)]),
                  ),
                }
              : {}),
          })),
        },
      ];
    }),
  );
}

/** Unloaded latency of every variant (interleaved request by request), repeated; medians of the percentiles. */
export async function compareLatency(
  targets: readonly LatencyTarget[],
  settings: { repeats: number; rounds: number },
): Promise<Record<string, UnloadedLatencyStats>> {
  const runs = new Map<string, LatencySummary[]>(targets.map((target) => [target.name, []]));
  for (let rep = 0; rep < settings.repeats; rep++) {
    const result = await interleavedLatency(targets, settings.rounds, rep === 0 ? 50 : 10);
    for (const target of targets)
      runs.get(target.name)?.push(required(result[target.name], `latency of ${target.name}`));
  }
  return Object.fromEntries(
    targets.map((target) => {
      const summaries = runs.get(target.name) ?? [];
      return [
        target.name,
        {
          p50: round(median(summaries.map((s) => s.p50)), 3),
          p95: round(median(summaries.map((s) => s.p95)), 3),
          p99: round(median(summaries.map((s) => s.p99)), 3),
          runs: summaries.map((s) => ({
            p50: round(s.p50, 3),
            p95: round(s.p95, 3),
            p99: round(s.p99, 3),
            count: s.count,
          })),
        },
      ];
    }),
  );
}
