import { databasePids, redisPids } from '../load/cpu';
import type { BenchOptions } from '../options';
import { dropBenchData } from '../stack/bench-data';
import { startBenchStack, waitAllReady, waitForCategories, type BenchStack } from '../stack/bench-stack';
import { runLoad } from '../load/throughput';
import { round } from '../stats';
import { required } from '../required';
import { compareThroughput, type ThroughputStats } from './compare';
import { ROUTE_1 } from './proxy';

export interface BuildAbResults {
  /** The other build's directory (`--baseline=`), its commit when it has a .git or a BASELINE file naming it. */
  baseline: string;
  route: string;
  throughput: { baseline: ThroughputStats; this_build: ThroughputStats };
  /** This build's req/s ÷ the baseline's, per pair of runs (taken back to back) and their median. */
  ratio: number;
  ratio_runs: number[];
}

/** Seconds of load each stack gets before the measured runs (JIT, range-hint samples, caches). */
const WARM_UP_S = 10;

async function startBuild(rootDir: string, name: string, stores: { mongoUrl: string; redisUrl: string }, dataOf: string): Promise<BenchStack> {
  const since = performance.now();
  // What the catalog page needs, and nothing a build may not have (builds older than the scrobble service).
  const stack = await startBenchStack({ ...stores, name, rootDir, catalogDataOf: dataOf, apps: ['registry-service', 'auth-service', 'catalog-service', 'gateway'] });
  try {
    await waitAllReady(stack.stack, since, 90_000);
    await waitForCategories(stack.gatewayUrl, 3);
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return stack;
}

/**
 * The public catalog page through the gateway, this build against another one (`--baseline=<dir>` holding
 * `nx.json` and `dist/apps/…`, e.g. an older commit built): two fresh stacks started side by side over the
 * benchmark's catalog data, each warmed up with the same load, then their runs take turns, so a burst of
 * load elsewhere hits both alike. Each stack has its own Redis prefix, registry and auth database
 * (`<name>_ab_this`, `<name>_ab_base`), so neither gateway routes to the other's catalogs.
 */
export async function measureBuildAb(
  rootDir: string,
  stores: { mongoUrl: string; redisUrl: string },
  baselineDir: string,
  options: BenchOptions,
  log: (text: string) => void,
): Promise<BuildAbResults> {
  const names = { this_build: `${options.name}_ab_this`, baseline: `${options.name}_ab_base` };
  const stacks: Partial<Record<keyof typeof names, BenchStack>> = {};
  try {
    stacks.this_build = await startBuild(rootDir, names.this_build, stores, options.name);
    stacks.baseline = await startBuild(baselineDir, names.baseline, stores, options.name);
    const build = { this_build: stacks.this_build, baseline: stacks.baseline };
    const url = (stack: BenchStack) => `${stack.gatewayUrl}${ROUTE_1}`;
    for (const stack of [build.this_build, build.baseline]) {
      await runLoad({ url: url(stack), connections: options.connections, durationS: WARM_UP_S });
    }
    log(`  two stacks ready and warmed up (${WARM_UP_S} s of load each): this build, and ${baselineDir}`);
    const pid = (stack: BenchStack, name: string) => [stack.stack.process(name).pid];
    const throughput = await compareThroughput(
      [
        { name: 'baseline', load: { url: url(build.baseline) } },
        { name: 'this_build', load: { url: url(build.this_build) } },
      ],
      options,
      log,
      {
        gateway: pid(build.this_build, 'gateway'),
        catalog: pid(build.this_build, 'catalog-movies'),
        baseline_gateway: pid(build.baseline, 'gateway'),
        baseline_catalog: pid(build.baseline, 'catalog-movies'),
        database: databasePids,
        redis: () => redisPids(new URL(stores.redisUrl).port || '6379'),
      },
    );
    const baseline = required(throughput['baseline'], 'baseline');
    const thisBuild = required(throughput['this_build'], 'this build');
    const ratioRuns = baseline.runs.map((run, index) => round((thisBuild.runs[index]?.rps ?? Number.NaN) / run.rps, 3));
    return {
      baseline: baselineDir,
      route: `GET ${ROUTE_1}`,
      throughput: { baseline, this_build: thisBuild },
      ratio: round(thisBuild.rps / baseline.rps, 3),
      ratio_runs: ratioRuns,
    };
  } finally {
    for (const [key, stack] of Object.entries(stacks)) {
      await stack.stop();
      await dropBenchData(stores, names[key as keyof typeof names]);
    }
  }
}
