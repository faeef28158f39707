import { startProbeSampler } from '../load/latency';
import { requireClean, runLoad } from '../load/throughput';
import type { BenchOptions } from '../options';
import type { BenchUser } from '../seed/users-seeder';
import { median, round, summarise } from '../stats';
import { required } from '../required';

const SAMPLE_INTERVAL_MS = 20;

export interface ProbeStats {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

export interface LoginResults {
  concurrency: number;
  users: number;
  logins_per_s: number;
  login_p50: number;
  login_p99: number;
  /** /livez sampled every 20 ms (one at a time per service) while idle, and during the storm. */
  livez_idle: Record<string, ProbeStats>;
  livez_during: Record<string, ProbeStats>;
  runs: Array<{ logins_per_s: number; login_p50: number; login_p99: number; livez: Record<string, ProbeStats> }>;
}

function probeStats(latencies: number[]): ProbeStats {
  const summary = summarise(latencies);
  return {
    p50: round(summary.p50, 3),
    p99: round(summary.p99, 3),
    max: round(summary.max, 3),
    samples: summary.count,
  };
}

async function sampleWhile<T>(
  urls: Record<string, string>,
  work: () => Promise<T>,
): Promise<{ value: T; stats: Record<string, ProbeStats> }> {
  const samplers = Object.entries(urls).map(
    ([name, url]) => [name, startProbeSampler(url, SAMPLE_INTERVAL_MS)] as const,
  );
  const stopAll = async () =>
    Object.fromEntries(
      await Promise.all(
        samplers.map(async ([name, sampler]) => [name, probeStats(await sampler.stop())] as const),
      ),
    );
  let value: T;
  try {
    value = await work();
  } catch (error) {
    await stopAll(); // nothing keeps sampling after a failure
    throw error;
  }
  return { value, stats: await stopAll() };
}

/**
 * A login storm: argon2id verifications at concurrency 8 through the gateway, rotating over many users,
 * while /livez of the auth service and of the gateway is sampled. argon2 runs on libuv's thread pool, so
 * the event loops should stay responsive even with both cores busy hashing.
 */
export async function measureLoginStorm(
  urls: { gateway: string; auth: string },
  users: readonly BenchUser[],
  options: BenchOptions,
  log: (text: string) => void,
): Promise<LoginResults> {
  const probes = { 'auth-service': `${urls.auth}/livez`, gateway: `${urls.gateway}/livez` };
  const bodies = users.map((user) => JSON.stringify({ username: user.username, password: user.password }));
  const idle = await sampleWhile(probes, () => new Promise((resolve) => setTimeout(resolve, 3000)));
  const runs: LoginResults['runs'] = [];
  for (let rep = 0; rep < options.repeats; rep++) {
    const { value: result, stats } = await sampleWhile(probes, () =>
      runLoad({
        url: `${urls.gateway}/api/v1/auth/login`,
        method: 'POST',
        connections: options.loginConcurrency,
        durationS: options.loginDurationS,
        bodies,
      }),
    );
    requireClean('login storm', result);
    runs.push({
      logins_per_s: round(result.rps, 1),
      login_p50: round(result.latency.p50, 1),
      login_p99: round(result.latency.p99, 1),
      livez: stats,
    });
    log(
      `    run ${rep + 1}: ${result.rps.toFixed(1)} logins/s (p50 ${result.latency.p50.toFixed(0)} ms); /livez p99 ` +
        Object.entries(stats)
          .map(([name, s]) => `${name} ${s.p99.toFixed(2)} ms`)
          .join(', '),
    );
  }
  const during = Object.fromEntries(
    Object.keys(probes).map((name) => {
      const perRun = runs.map((run) => required(run.livez[name], `/livez samples of ${name}`));
      return [
        name,
        {
          p50: round(median(perRun.map((s) => s.p50)), 3),
          p99: round(median(perRun.map((s) => s.p99)), 3),
          max: round(Math.max(...perRun.map((s) => s.max)), 3),
          samples: perRun.reduce((sum, s) => sum + s.samples, 0),
        },
      ];
    }),
  );
  return {
    concurrency: options.loginConcurrency,
    users: users.length,
    logins_per_s: round(median(runs.map((run) => run.logins_per_s)), 1),
    login_p50: round(median(runs.map((run) => run.login_p50)), 1),
    login_p99: round(median(runs.map((run) => run.login_p99)), 1),
    livez_idle: idle.stats,
    livez_during: during,
    runs,
  };
}
