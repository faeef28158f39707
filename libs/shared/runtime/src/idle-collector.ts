import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleCollectorOptions {
  /** How often the process looks at itself. */
  intervalMs?: number;
  /**
   * CPU (all of the process's threads, as a share of one core) over the last interval at or under which the
   * process counts as idle. Not the event loop's utilization: the auth service's hashing runs on other threads.
   */
  idleCpuShare?: number;
  /** Growth of the heap's committed size since the last collection below which nothing is worth collecting. */
  minGrowthBytes?: number;
  /** Told after each collection: heap used before and after, in bytes. */
  onCollect?: (before: number, after: number) => void;
}

export interface IdleCollector {
  stop(): void;
}

/**
 * V8 collects garbage when the process allocates, so a service that goes idle after a burst keeps the
 * burst's garbage, and the memory under it, until traffic comes back; V8's memory reducer steps in only
 * when the last full collection grew the heap (figures: bench/README.md "Figures behind decisions in the
 * code"). So: once the process has been idle for an interval and its heap has grown since the last
 * collection, collect and compact once, when no request waits. Node has no API for this; V8's flags set at run time are the documented way to reach `gc`.
 */
export function startIdleCollector(options: IdleCollectorOptions = {}): IdleCollector {
  const { intervalMs = 5000, idleCpuShare = 0.05, minGrowthBytes = 8 * 1024 * 1024, onCollect } = options;
  const collect = compactingGc();
  // The heap's committed size after the last collection (or the lowest seen since): V8's own collections
  // free garbage but seldom give pages back, so growth of the committed size is what is worth collecting.
  let baseline = process.memoryUsage().heapTotal;
  let last = { cpu: process.cpuUsage(), at: process.hrtime.bigint() };
  const timer = setInterval(() => {
    const now = { cpu: process.cpuUsage(), at: process.hrtime.bigint() };
    const cpuUs = now.cpu.user - last.cpu.user + now.cpu.system - last.cpu.system;
    const busy = cpuUs / (Number(now.at - last.at) / 1000);
    last = now;
    const { heapTotal, heapUsed } = process.memoryUsage();
    baseline = Math.min(baseline, heapTotal);
    if (busy > idleCpuShare || heapTotal - baseline < minGrowthBytes) return;
    collect();
    const after = process.memoryUsage();
    baseline = after.heapTotal;
    onCollect?.(heapUsed, after.heapUsed);
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * A full collection that also compacts every page: a plain one frees the garbage but keeps the pages where
 * survivors are scattered (bench/README.md "Figures behind decisions in the code").
 */
function compactingGc(): () => void {
  const gc = globalThis.gc ?? exposeGc();
  return () => {
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
