import { readFileSync } from 'node:fs';

export interface MemorySeries {
  /** RSS samples in MiB, in time order (one per interval while the process was alive). */
  samplesMb: number[];
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

/** Samples the RSS of every named process every `intervalMs` until stopped. */
export function sampleMemory(processes: () => ReadonlyArray<{ name: string; pid: number }>, intervalMs = 1000) {
  const series = new Map<string, MemorySeries>();
  const take = () => {
    for (const { name, pid } of processes()) {
      const mb = rssMb(pid);
      if (mb === undefined) continue;
      const entry = series.get(name) ?? { samplesMb: [] };
      entry.samplesMb.push(mb);
      series.set(name, entry);
    }
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop(): Map<string, MemorySeries> {
      clearInterval(timer);
      take();
      return series;
    },
  };
}

const average = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
const round1 = (value: number) => Math.round(value * 10) / 10;

export interface MemoryFigures {
  samples: number;
  first_quarter_mb: number;
  last_quarter_mb: number;
  max_mb: number;
  /** Last-quarter average over first-quarter average, in percent (negative: it shrank). */
  growth_pct: number;
}

export function memoryFigures({ samplesMb }: MemorySeries): MemoryFigures {
  const quarter = Math.max(1, Math.floor(samplesMb.length / 4));
  const first = average(samplesMb.slice(0, quarter));
  const last = average(samplesMb.slice(-quarter));
  return {
    samples: samplesMb.length,
    first_quarter_mb: round1(first),
    last_quarter_mb: round1(last),
    max_mb: round1(Math.max(...samplesMb)),
    growth_pct: round1(((last - first) / first) * 100),
  };
}
