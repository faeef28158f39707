import { readFileSync } from 'node:fs';
import { percentile } from './traffic';

export interface MemorySeries {
  /** RSS samples in MiB, in time order (one per interval while the process was alive). */
  rssMb: number[];
  /** V8 heap in use right after a full garbage collection (the live heap), in MiB. */
  liveHeapMb: number[];
}

/** Resident set size of a process in MiB (VmRSS of /proc/<pid>/status), or undefined when it is gone. */
export function rssMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

async function heapUsedMb(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(900) });
    const value = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)/m.exec(await response.text())?.[1];
    return value === undefined ? undefined : Number(value) / 1024 / 1024;
  } catch {
    return undefined;
  }
}

export interface SampledProcess {
  name: string;
  pid: number;
  /** Its metrics port (where /metrics is served). */
  metricsUrl: string | undefined;
}

/**
 * Samples every process's RSS (from /proc) every `intervalMs`, and every `heapEveryMs` its live heap: a full
 * garbage collection is triggered with SIGUSR2 (the processes must run with test/gc-on-signal.cjs preloaded),
 * then nodejs_heap_size_used_bytes is read from the /metrics of the process's metrics port.
 */
export function sampleMemory(
  processes: () => readonly SampledProcess[],
  intervalMs = 1000,
  heapEveryMs = 5000,
) {
  const series = new Map<string, MemorySeries>();
  const seriesOf = (name: string) => {
    const entry = series.get(name) ?? { rssMb: [], liveHeapMb: [] };
    series.set(name, entry);
    return entry;
  };
  const sampleRss = () => {
    for (const { name, pid } of processes()) {
      const rss = rssMb(pid);
      if (rss !== undefined) seriesOf(name).rssMb.push(rss);
    }
  };
  let heapRound = Promise.resolve();
  const sampleLiveHeap = () => {
    heapRound = heapRound.then(async () => {
      const targets = processes();
      for (const { pid } of targets) {
        try {
          process.kill(pid, 'SIGUSR2');
        } catch {
          // gone: no sample
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const { name, metricsUrl } of targets) {
        const heap = metricsUrl ? await heapUsedMb(metricsUrl) : undefined;
        if (heap !== undefined) seriesOf(name).liveHeapMb.push(heap);
      }
    });
  };
  sampleRss();
  sampleLiveHeap();
  const rssTimer = setInterval(sampleRss, intervalMs);
  const heapTimer = setInterval(sampleLiveHeap, heapEveryMs);
  return {
    async stop(): Promise<Map<string, MemorySeries>> {
      clearInterval(rssTimer);
      clearInterval(heapTimer);
      sampleLiveHeap();
      await heapRound;
      return series;
    },
  };
}

const average = (values: readonly number[]) =>
  values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
const round1 = (value: number) => Math.round(value * 10) / 10;
const quarters = (values: readonly number[]) => {
  const size = Math.max(1, Math.floor(values.length / 4));
  return { first: values.slice(0, size), last: values.slice(-size) };
};

export interface MemoryFigures {
  samples: number;
  first_quarter_mb: number;
  last_quarter_mb: number;
  max_mb: number;
  /** Last-quarter average RSS over first-quarter average, in percent (negative: it shrank). */
  growth_pct: number;
  /**
   * Live heap (after a full garbage collection): first-quarter and last-quarter medians, and the growth. Medians,
   * because a leak raises every sample of the last quarter while a large answer in flight at one collection
   * raises only that sample.
   */
  live_heap_first_quarter_mb: number;
  live_heap_last_quarter_mb: number;
  live_heap_growth_pct: number;
}

export function memoryFigures(series: MemorySeries): MemoryFigures {
  const rss = quarters(series.rssMb);
  const heap = quarters(series.liveHeapMb);
  const firstRss = average(rss.first);
  const lastRss = average(rss.last);
  const firstHeap = percentile(heap.first, 50);
  const lastHeap = percentile(heap.last, 50);
  return {
    samples: series.rssMb.length,
    first_quarter_mb: round1(firstRss),
    last_quarter_mb: round1(lastRss),
    max_mb: round1(Math.max(...series.rssMb)),
    growth_pct: round1(((lastRss - firstRss) / firstRss) * 100),
    live_heap_first_quarter_mb: round1(firstHeap),
    live_heap_last_quarter_mb: round1(lastHeap),
    live_heap_growth_pct: round1(((lastHeap - firstHeap) / firstHeap) * 100),
  };
}
