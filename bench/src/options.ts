import { APPS, type AppName } from '@mt/stack';

export const SCENARIOS = ['proxy', 'auth', 'search', 'login', 'bulk', 'lists', 'catalog-scale', 'imports', 'coldstart', 'single-process', 'catalog-floor', 'build-ab', 'images', 'scrobble', 'plays', 'providers'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface BenchOptions {
  /** A short smoke run (small sizes, short runs, one repetition), written to latest-quick.*, not latest.*. */
  quick: boolean;
  /** Catalog sizes, ascending; search is measured at each. */
  sizes: number[];
  users: number;
  listEntries: number;
  /** Each measurement is repeated this often; the median is reported. */
  repeats: number;
  /** Seconds of each closed-loop throughput run. */
  durationS: number;
  /** Concurrent connections of the throughput runs. */
  connections: number;
  /** Requests per target in an unloaded (one at a time) latency measurement. */
  latencyRounds: number;
  loginConcurrency: number;
  loginDurationS: number;
  bulkRuns: number;
  coldStarts: number;
  scenarios: Set<Scenario>;
  profileApps: AppName[];
  /** Keep the benchmark's databases and Redis keys after the run (they are always dropped at the start). */
  keepData: boolean;
  /** Name of the stack's databases and Redis prefix. */
  name: string;
  /** `build-ab`: the directory of the build to compare with (`nx.json` and `dist/apps/…`). */
  baseline?: string;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function intOption(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min)
    throw new Error(`${name} must be an integer >= ${min}, got '${value}'`);
  return number;
}

/**
 * Name of the run's databases and Redis prefix (`bench` by default): two runs at once in the same stores
 * (two people on one machine) each need their own, or each drops the other's data at its start.
 */
function benchName(value: string | undefined): string {
  if (value === undefined || value === '') return 'bench';
  if (!/^[a-z][a-z0-9_]{0,30}$/.test(value)) throw new Error(`name must be lower-case letters, digits and _ (start with a letter), got '${value}'`);
  return value;
}

/** `--name=value` arguments override the BENCH_* environment variables (`npm run bench -- --quick`). */
export function readOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const args = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match)
      throw new Error(
        `unknown argument '${arg}' (use --quick, --only=proxy,auth, --profile=gateway, --keep-data)`,
      );
    args.set(match[1] ?? '', match[2] ?? 'true');
  }
  const get = (name: string, envName: string) => args.get(name) ?? env[envName];
  const quick = ['1', 'true'].includes(get('quick', 'BENCH_QUICK') ?? '');
  const sizes = list(get('sizes', 'BENCH_SIZES')).map((size) => intOption('sizes', size, 0, 100));
  const only = list(get('only', 'BENCH_ONLY'));
  for (const scenario of only) {
    if (!(SCENARIOS as readonly string[]).includes(scenario))
      throw new Error(`unknown scenario '${scenario}' (have: ${SCENARIOS.join(', ')})`);
  }
  if (only.includes('build-ab') && !get('baseline', 'BENCH_BASELINE'))
    throw new Error('build-ab needs --baseline=<dir> (a built checkout of the other commit)');
  const profileApps = list(get('profile', 'BENCH_CPU_PROF'));
  for (const app of profileApps) {
    if (!(APPS as readonly string[]).includes(app))
      throw new Error(`unknown app '${app}' to profile (have: ${APPS.join(', ')})`);
  }
  const chosenSizes = sizes.length
    ? sizes.sort((a, b) => a - b)
    : quick
      ? [1000, 5000]
      : [1000, 10_000, 100_000];
  return {
    quick,
    sizes: chosenSizes,
    users: intOption('users', get('users', 'BENCH_USERS'), quick ? 100 : 1000, 10),
    listEntries: Math.min(
      Math.max(...chosenSizes),
      intOption('list', get('list', 'BENCH_LIST_ENTRIES'), quick ? 1000 : 10_000, 500),
    ),
    repeats: intOption('repeats', get('repeats', 'BENCH_REPEATS'), quick ? 1 : 3, 1),
    durationS: intOption('duration', get('duration', 'BENCH_DURATION_S'), quick ? 2 : 5, 1),
    connections: intOption('connections', get('connections', 'BENCH_CONNECTIONS'), 16, 1),
    latencyRounds: intOption('rounds', get('rounds', 'BENCH_LATENCY_ROUNDS'), quick ? 60 : 300, 10),
    loginConcurrency: 8,
    loginDurationS: quick ? 3 : 8,
    bulkRuns: quick ? 3 : 9,
    coldStarts: quick ? 1 : 3,
    scenarios: new Set(only.length ? (only as Scenario[]) : SCENARIOS),
    profileApps: profileApps as AppName[],
    keepData: ['1', 'true'].includes(get('keep-data', 'BENCH_KEEP_DATA') ?? ''),
    name: benchName(get('name', 'BENCH_NAME')),
    baseline: get('baseline', 'BENCH_BASELINE') || undefined,
  };
}
