import { readFileSync } from 'node:fs';

export interface MemorySeries {
  /** RSS samples in MiB, in time order (one per interval while the process was alive). */
  rssMb: number[];
  /** V8 heap in use (nodejs_heap_size_used_bytes of the process's /metrics), in MiB. */
  heapUsedMb: number[];
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

/** Samples every process's RSS (from /proc) and V8 heap in use (from its /metrics) every `intervalMs`. */
export function sampleMemory(
  processes: () => ReadonlyArray<{ name: string; pid: number; url: string }>,
  intervalMs = 1000,
) {
  const series = new Map<string, MemorySeries>();
  const seriesOf = (name: string) => {
    const entry = series.get(name) ?? { rssMb: [], heapUsedMb: [] };
    series.set(name, entry);
    return entry;
  };
  let pending = Promise.resolve();
  const take = () => {
    for (const { name, pid, url } of processes()) {
      const rss = rssMb(pid);
      if (rss !== undefined) seriesOf(name).rssMb.push(rss);
      pending = pending.then(async () => {
        const heap = await heapUsedMb(url);
        if (heap !== undefined) seriesOf(name).heapUsedMb.push(heap);
      });
    }
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    async stop(): Promise<Map<string, MemorySeries>> {
      clearInterval(timer);
      await pending;
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
   * The lowest heap in use in the first quarter and in the second half: what survives garbage collection.
   * RSS follows V8's heap sizing (it grows in steps and is returned late), so a leak shows as a rising floor.
   * The second half is the longer window because V8 spaces its full collections out as the heap grows (runs
   * without a leak had single 15 s windows without one); a leak raises the floor in all of it.
   */
  heap_floor_first_quarter_mb: number;
  heap_floor_second_half_mb: number;
  heap_floor_growth_pct: number;
}

export function memoryFigures(series: MemorySeries): MemoryFigures {
  const rss = quarters(series.rssMb);
  const firstRss = average(rss.first);
  const lastRss = average(rss.last);
  const firstFloor = Math.min(...quarters(series.heapUsedMb).first);
  const lastFloor = Math.min(...series.heapUsedMb.slice(Math.floor(series.heapUsedMb.length / 2)));
  return {
    samples: series.rssMb.length,
    first_quarter_mb: round1(firstRss),
    last_quarter_mb: round1(lastRss),
    max_mb: round1(Math.max(...series.rssMb)),
    growth_pct: round1(((lastRss - firstRss) / firstRss) * 100),
    heap_floor_first_quarter_mb: round1(firstFloor),
    heap_floor_second_half_mb: round1(lastFloor),
    heap_floor_growth_pct: round1(((lastFloor - firstFloor) / firstFloor) * 100),
  };
}
