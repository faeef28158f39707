import type { AppName } from '@mt/stack';
import { startBenchStack, waitAllReady, waitForCategories } from '../stack/bench-stack';
import { dropBenchData } from '../stack/bench-data';
import { median, round } from '../stats';

export interface ColdStartRun {
  /** From launching the processes until every /readyz answered 200. */
  all_ready_ms: number;
  by_process_ms: Record<string, number>;
  /** Until the gateway also lists every category (registration reaches its route table asynchronously). */
  routable_ms: number;
}

export interface ColdStartResults {
  /** Fresh processes on empty databases (indexes created at start-up). */
  fresh: { median_ms: number; runs: ColdStartRun[] };
  /** Fresh processes on the benchmark's populated databases (the catalog reconciles its counter over 100 000 entries). */
  with_data?: ColdStartRun;
}

const CATEGORIES = 3;

/** Starts a whole stack, measures how long until it is ready, stops it. */
export async function coldStartOnce(settings: {
  mongoUrl: string;
  redisUrl: string;
  rootDir: string;
  name: string;
  profileApps?: AppName[];
}): Promise<ColdStartRun> {
  const started = performance.now();
  const bench = await startBenchStack(settings);
  try {
    const ready = await waitAllReady(bench.stack, started);
    await waitForCategories(bench.gatewayUrl, CATEGORIES);
    const routable = performance.now() - started;
    return {
      all_ready_ms: round(ready.allMs, 0),
      by_process_ms: Object.fromEntries(
        Object.entries(ready.byProcess).map(([name, ms]) => [name, round(ms, 0)]),
      ),
      routable_ms: round(routable, 0),
    };
  } finally {
    await bench.stop();
  }
}

/** Cold starts of a fresh stack on fresh databases (dropped before each), repeated; the median counts. */
export async function measureColdStarts(
  settings: { mongoUrl: string; redisUrl: string; rootDir: string },
  repeats: number,
  log: (text: string) => void,
): Promise<ColdStartResults['fresh']> {
  const name = 'bench_cold';
  const runs: ColdStartRun[] = [];
  try {
    for (let run = 0; run < repeats; run++) {
      await dropBenchData(settings, name);
      const result = await coldStartOnce({ ...settings, name });
      runs.push(result);
      log(
        `    fresh start ${run + 1}: all /readyz 200 after ${result.all_ready_ms} ms (routable ${result.routable_ms} ms) ${JSON.stringify(result.by_process_ms)}`,
      );
    }
  } finally {
    await dropBenchData(settings, name);
  }
  return { median_ms: round(median(runs.map((run) => run.all_ready_ms)), 0), runs };
}
