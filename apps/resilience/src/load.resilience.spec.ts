import path from 'node:path';
import { createEntry, createPat, createUser, type CatalogEntry } from './support/api-fixtures';
import { recordFigures } from './support/figures';
import { HttpClient, requestTally } from './support/http-client';
import { LeakScanner } from './support/leak-scanner';
import { LoadWorkload, SEARCH_WORDS, type LoadUser } from './support/load-workload';
import { memoryFigures, sampleMemory, type MemoryFigures } from './support/memory-sampler';
import {
  CATEGORIES,
  startResilienceStack,
  type Category,
  type ResilienceStack,
} from './support/resilience-stack';
import { countByStatus, percentile, runTraffic, type TrafficResult, type TrafficSample } from './support/traffic';

/**
 * Issue 8, load: mixed traffic through the gateway at a steady rate (catalog reads and searches, list writes,
 * bulk operations, catalog writes, logins) with no 5xx and no lost write (every acknowledged write is read
 * back), and every process's memory bounded without steady growth.
 *
 * RESILIENCE_LOAD_SECONDS (default 120) and RESILIENCE_LOAD_RPS (default 60) tune the run.
 */

const SECONDS = Number(process.env['RESILIENCE_LOAD_SECONDS'] ?? 120);
const RATE = Number(process.env['RESILIENCE_LOAD_RPS'] ?? 60);
/** Warm-up traffic before memory is sampled: JIT compilation and pools filling are not "growth". */
const WARM_UP_SECONDS = Math.min(10, Math.max(2, Math.round(SECONDS / 12)));
const MAX_IN_FLIGHT = 32;
/** Upper bound of any process's RSS during the run. */
const RSS_LIMIT_MB = 400;
/**
 * Last-quarter average RSS may exceed the first-quarter average by at most this much (percent). RSS follows
 * V8's heap sizing (it grows in steps and is returned late), so this is the coarse check...
 */
const RSS_GROWTH_LIMIT_PCT = 50;
/**
 * ...and this the sharp one: the live heap (measured right after a full garbage collection, see
 * test/gc-on-signal.cjs) may grow at most this much from the first to the last quarter.
 */
const LIVE_HEAP_GROWTH_LIMIT_PCT = 20;
/** Preloaded into every service: SIGUSR2 runs a full collection, so the sampler reads the live heap. */
const GC_ON_SIGNAL = path.join(__dirname, '..', 'test', 'gc-on-signal.cjs');
const USERS = 6;
const SEEDS_PER_CATEGORY = 24;

const scanner = new LeakScanner();
let env: ResilienceStack;
let api: HttpClient;
let workload: LoadWorkload;
let traffic: TrafficResult | undefined;
let memory: Record<string, MemoryFigures> = {};
let rawMemory: Record<string, { rss: number[]; liveHeap: number[] }> = {};
let verification: { keysChecked: number; mismatches: string[] } | undefined;

beforeAll(async () => {
  env = await startResilienceStack({
    name: 'load',
    env: {
      RATE_LIMIT_PER_MINUTE: '100000',
      NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --expose-gc --require ${GC_ON_SIGNAL}`.trim(),
    },
  });
  scanner.addSecret(env.stack.internalSecret, 'internal secret');
  api = new HttpClient(env.gatewayUrl, scanner);
  const users: LoadUser[] = [];
  for (let i = 0; i < USERS; i++) {
    const user = await createUser(api, scanner, `load${i}`);
    users.push({ ...user, pat: (await createPat(api, scanner, user.jwt, 'load pat')).token });
  }
  const items = {} as Record<Category, CatalogEntry[]>;
  for (const category of CATEGORIES) {
    items[category] = [];
    for (let i = 0; i < SEEDS_PER_CATEGORY; i++) {
      const word = SEARCH_WORDS[i % SEARCH_WORDS.length];
      items[category].push(
        await createEntry(api, users[i % USERS]!.jwt, category, {
          title: `Seed ${word} ${category} ${i}`,
          year: 1970 + i,
        }),
      );
    }
  }
  workload = new LoadWorkload(api, users, items);
}, 180_000);

afterAll(async () => {
  const stopProblem = env
    ? await env.stop().then(
        () => undefined,
        (error: Error) => error.message,
      )
    : undefined;
  if (env) scanner.scanLogs(env.logs);
  const samples = traffic?.samples ?? [];
  const latencies = samples.map((s) => s.ms);
  recordFigures('load', {
    duration_s: Math.round((traffic?.durationMs ?? 0) / 1000),
    target_rps: RATE,
    achieved_rps: traffic ? Math.round((traffic.started / (traffic.durationMs / 1000)) * 10) / 10 : 0,
    requests: samples.length,
    skipped_ticks: traffic?.skipped ?? 0,
    by_status: countByStatus(samples),
    by_operation: samples.reduce<Record<string, number>>(
      (counts, s) => ((counts[s.label] = (counts[s.label] ?? 0) + 1), counts),
      {},
    ),
    five_xx: samples.filter((s) => s.status >= 500).length,
    unexpected_5xx: samples.filter((s) => s.status >= 500).length,
    no_answer: samples.filter((s) => s.status === 0).length,
    p50_ms: Math.round(percentile(latencies, 50)),
    p99_ms: Math.round(percentile(latencies, 99)),
    latency_by_operation: latencyByOperation(samples),
    writes_acknowledged: workload?.writes.length ?? 0,
    writes_verified:
      verification && verification.mismatches.length === 0 ? (workload?.writes.length ?? 0) : null,
    writes_lost: verification?.mismatches.length ?? null,
    keys_read_back: verification?.keysChecked ?? 0,
    anomalies: workload?.anomalies.length ?? null,
    all_requests_of_the_file: requestTally.sent,
    memory,
    leak_scan: scanner.summary(),
    stop_problem: stopProblem ?? null,
  });
  if (stopProblem) throw new Error(`stopping the stack failed: ${stopProblem}`);
});

/** p50/p99/max per operation: which kind of request a slow tail belongs to. */
function latencyByOperation(samples: readonly TrafficSample[]): Record<string, { p50_ms: number; p99_ms: number; max_ms: number }> {
  const byLabel = new Map<string, number[]>();
  for (const s of samples) byLabel.set(s.label, [...(byLabel.get(s.label) ?? []), s.ms]);
  return Object.fromEntries(
    [...byLabel].map(([label, ms]) => [label, { p50_ms: Math.round(percentile(ms, 50)), p99_ms: Math.round(percentile(ms, 99)), max_ms: Math.round(Math.max(...ms)) }]),
  );
}

describe(`${SECONDS} s of mixed traffic at ${RATE} req/s through the gateway`, () => {
  it('answers every request without a 5xx or a hang, at the steady rate', async () => {
    await runTraffic({
      rate: RATE,
      maxInFlight: MAX_IN_FLIGHT,
      durationMs: WARM_UP_SECONDS * 1000,
      next: () => workload.next(),
    });
    const sampler = sampleMemory(() => env.stack.processes.filter((p) => p.running));
    try {
      traffic = await runTraffic({
        rate: RATE,
        maxInFlight: MAX_IN_FLIGHT,
        durationMs: SECONDS * 1000,
        next: () => workload.next(),
      });
    } finally {
      const series = await sampler.stop();
      rawMemory = Object.fromEntries(
        [...series].map(([name, s]) => [
          name,
          { rss: s.rssMb.map(Math.round), liveHeap: s.liveHeapMb.map(Math.round) },
        ]),
      );
      memory = Object.fromEntries([...series].map(([name, s]) => [name, memoryFigures(s)]));
    }
    const { samples, durationMs, started } = traffic;
    const byStatus = countByStatus(samples);
    process.stdout.write(
      `\nload: ${samples.length} requests in ${Math.round(durationMs / 1000)} s (${(started / (durationMs / 1000)).toFixed(1)} req/s, ${traffic.skipped} ticks skipped at ${MAX_IN_FLIGHT} in flight); by status ${JSON.stringify(byStatus)}; p50 ${Math.round(
        percentile(
          samples.map((s) => s.ms),
          50,
        ),
      )} ms, p99 ${Math.round(
        percentile(
          samples.map((s) => s.ms),
          99,
        ),
      )} ms\n`,
    );
    expect(
      samples
        .filter((s) => s.status >= 500 || s.status === 0)
        .map((s) => `${s.label}: ${s.status} ${s.code ?? ''}`),
    ).toEqual([]);
    // The mix has no reason for a 4xx: each one is a contradiction of the model or the contract.
    expect(workload.anomalies).toEqual([]);
    expect(
      samples.filter((s) => s.status >= 400).map((s) => `${s.label}: ${s.status} ${s.code ?? ''}`),
    ).toEqual([]);
    expect(started / (durationMs / 1000)).toBeGreaterThanOrEqual(RATE * 0.8);
    expect(env.unexpectedExits).toEqual([]);
  });

  it('lost no acknowledged write: every list entry and catalog entry reads back as last acknowledged', async () => {
    verification = await workload.verify();
    expect(workload.writes.length).toBeGreaterThan(0);
    expect(verification.mismatches).toEqual([]);
  });

  it('kept every process’s memory bounded, without steady growth', () => {
    process.stdout.write(`memory (MiB): ${JSON.stringify(memory)}\n`);
    if (process.env['RESILIENCE_DEBUG']) {
      process.stdout.write(`${JSON.stringify(rawMemory)}\n`);
      const slow = (traffic?.samples ?? []).filter((s) => s.ms > 2000).map((s) => `${Math.round(s.at)}+${Math.round(s.ms)} ${s.label} ${s.status}`);
      process.stdout.write(`slow requests (started at ms + took ms): ${slow.join(', ')}\n`);
    }
    expect(Object.keys(memory).sort()).toEqual(env.stack.processes.map((p) => p.name).sort());
    const problems = Object.entries(memory).flatMap(([name, figures]) => [
      ...(figures.max_mb <= RSS_LIMIT_MB
        ? []
        : [`${name}: RSS reached ${figures.max_mb} MiB (limit ${RSS_LIMIT_MB})`]),
      ...(figures.growth_pct <= RSS_GROWTH_LIMIT_PCT
        ? []
        : [`${name}: RSS grew ${figures.growth_pct}% (limit ${RSS_GROWTH_LIMIT_PCT}%)`]),
      ...(figures.live_heap_growth_pct <= LIVE_HEAP_GROWTH_LIMIT_PCT
        ? []
        : [
            `${name}: live heap grew ${figures.live_heap_growth_pct}% (limit ${LIVE_HEAP_GROWTH_LIMIT_PCT}%)`,
          ]),
    ]);
    expect(problems).toEqual([]);
  });

  it('leaks no stack trace, hash or secret in any answer or log line', () => {
    scanner.scanLogs(env.logs);
    expect(scanner.leaks).toEqual([]);
  });
});
