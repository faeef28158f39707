import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { createLogger } from '@mt/logging';
import { APPS, appEntry, findWorkspaceRoot, provideMongo, provideRedis, type ProvidedStore } from '@mt/stack';
import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { benchImdbId, choosePrefixes, generateMovies } from './data/movies';
import { cpuMeter } from './load/cpu';
import { HttpClient } from './load/http-client';
import { describeMachine, probeMachine } from './machine/probe';
import { readOptions, SCENARIOS, type BenchOptions } from './options';
import { renderConsole, renderMarkdown } from './report/render';
import type { BenchResults } from './report/results';
import { evaluateTargets } from './report/targets';
import { measureAuthCost } from './scenarios/auth';
import { measurePlays } from './scenarios/plays';
import { measureBulkStatus } from './scenarios/bulk';
import { measureBuildAb } from './scenarios/build-ab';
import { measureCatalogFloor } from './scenarios/catalog-floor';
import { measureCatalogScale } from './scenarios/catalog-scale';
import { measureImportExport } from './scenarios/imports';
import { compareListWithCatalog, listGrowth, measureListsBySize } from './scenarios/lists';
import { coldStartOnce, measureColdStarts } from './scenarios/coldstart';
import { measureLoginStorm } from './scenarios/login';
import { measureGatewayHotPath } from './scenarios/hot-path';
import { measureImageServing } from './scenarios/images';
import { measureProxyOverhead } from './scenarios/proxy';
import { measureSearch } from './scenarios/search';
import { compareSingleProcess } from './scenarios/single-process';
import { measureScrobble } from './scenarios/scrobble';
import { openCatalogSeeder } from './seed/catalog-seeder';
import { seedList } from './seed/list-seeder';
import { seedUsers } from './seed/users-seeder';
import { benchDatabaseNames, dropBenchData } from './stack/bench-data';
import { imageOriginEnv, startImageOrigin, type ImageOrigin } from './stack/image-origin';
import {
  memoryBreakdown,
  stackRss,
  startBenchStack,
  waitAllReady,
  waitForCategories,
  type BenchStack,
} from './stack/bench-stack';
import { round } from './stats';
import { startProviderReplay, type ProviderReplay } from '@mt/provider-replay';
import { measureProviderSearch } from './scenarios/providers';
import { required } from './required';

const t0 = performance.now();
const log = (text: string) =>
  process.stdout.write(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${text}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (since: number) => round((performance.now() - since) / 1000, 1);

/** What the MongoDB at `url` really is: the test sandbox answers its own `msbStats` command. */
async function describeMongo(url: string): Promise<{ server: string; version: string }> {
  const connection = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    const admin = required(connection.db, 'MongoDB connection').admin();
    const info = await admin.command({ buildInfo: 1 });
    const sandbox = await admin.command({ msbStats: 1 }).then(
      () => true,
      () => false,
    );
    return {
      server: sandbox
        ? 'mongo-sandbox (DocumentDB on PostgreSQL behind a wire bridge, not mongod)'
        : 'mongod',
      version: String(info['version']),
    };
  } finally {
    await connection.close();
  }
}

async function describeRedis(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? 'unknown';
  } finally {
    redis.disconnect();
  }
}

interface Session {
  jwt: string;
  pat: string;
}

/** The scrobble scenario's load (issue 38): events per second, for this many seconds. */
const SCROBBLE_RATE = 50;
const SCROBBLE_SECONDS = 30;

/** List sizes of the lists scenario (issue 17). */
const LIST_SIZES = [1000, 10_000, 50_000];

async function logIn(gatewayUrl: string, username: string, password: string): Promise<string> {
  const client = new HttpClient(1);
  try {
    const login = await client.json<{ access_token: string }>(`${gatewayUrl}/api/v1/auth/login`, 200, {
      method: 'POST',
      json: { username, password },
    });
    return login.access_token;
  } finally {
    client.close();
  }
}

async function loginAndCreatePat(gatewayUrl: string, username: string, password: string): Promise<Session> {
  const jwt = await logIn(gatewayUrl, username, password);
  const client = new HttpClient(1);
  try {
    const token = await client.json<{ token: string }>(`${gatewayUrl}/api/v1/auth/tokens`, 201, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
      json: { name: 'benchmark', expires_in_days: 1 },
    });
    return { jwt, pat: token.token };
  } finally {
    client.close();
  }
}

/** A complete run goes to bench/results (committed); a quick or partial one to tmp/bench (ignored). */
function resultFiles(rootDir: string, options: BenchOptions) {
  const complete = !options.quick && options.scenarios.size === SCENARIOS.length;
  const dir = complete ? path.join(rootDir, 'bench', 'results') : path.join(rootDir, 'tmp', 'bench');
  const base = complete ? 'latest' : 'latest-partial';
  return { dir, json: path.join(dir, `${base}.json`), markdown: path.join(dir, `${base}.md`) };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  const rootDir = findWorkspaceRoot();
  const missing = APPS.filter((app) => !existsSync(appEntry(rootDir, app)));
  if (missing.length)
    throw new Error(
      `build first (npm run build): missing ${missing.map((app) => appEntry(rootDir, app)).join(', ')}`,
    );
  const runStarted = performance.now();
  const files = resultFiles(rootDir, options);
  const profileDir = path.join(rootDir, 'tmp', 'bench', 'profiles');
  if (options.profileApps.length) mkdirSync(profileDir, { recursive: true });
  // First, while nothing of the bench runs yet (the stores may be processes started just below).
  const machine = probeMachine();

  const stores: ProvidedStore[] = [];
  const [mongo, redis] = await Promise.all([provideMongo(process.env), provideRedis(process.env)]);
  stores.push(mongo, redis);
  const storeUrls = { mongoUrl: mongo.url, redisUrl: redis.url };
  let bench: BenchStack | undefined;
  let replay: ProviderReplay | undefined;
  let imageOrigin: ImageOrigin | undefined;
  let imageCacheDir: string | undefined;
  try {
    const results: BenchResults = {
      meta: {
        started_at: new Date().toISOString(),
        quick: options.quick,
        node: process.version,
        cpus: cpus().length,
        cpu_model: cpus()[0]?.model.trim() ?? 'unknown',
        memory_gb: round(totalmem() / 2 ** 30, 1),
        load_average: { start: round(loadavg()[0] ?? 0, 2) },
        machine,
        mongo: await describeMongo(mongo.url),
        redis: await describeRedis(redis.url),
        settings: {
          sizes: options.sizes,
          repeats: options.repeats,
          throughput_run_s: options.durationS,
          connections: options.connections,
          unloaded_latency_requests: options.latencyRounds,
          login_concurrency: options.loginConcurrency,
          login_run_s: options.loginDurationS,
          scenarios: [...options.scenarios],
          service_env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '10000000' },
        },
        notes: [],
      },
      dataset: {
        sizes: options.sizes,
        vocabulary_words: 0,
        search_prefix: '',
        prefix_matches: {},
        users: { total: 0, via_api: 0, direct: 0, distinct_hashes: 0, seconds: 0 },
        list_entries: 0,
        seeding_seconds: {},
      },
      rss_mb: {},
      log_problems: { count: 0, sample: [] },
      targets: [],
    };
    log(
      `benchmark: ${results.meta.cpus} × ${results.meta.cpu_model}, node ${process.version}, load average ${results.meta.load_average.start}; ${describeMachine(machine)}`,
    );
    log(
      `  MongoDB ${mongo.url} (${results.meta.mongo.server} ${results.meta.mongo.version}), Redis ${redis.url} (${results.meta.redis})`,
    );

    log(
      `dropping the benchmark's databases (${benchDatabaseNames(options.name).join(', ')}) and Redis keys (${options.name}:*)`,
    );
    await dropBenchData(storeUrls, options.name);

    const largest = Math.max(...options.sizes);
    let phase = performance.now();
    const data = generateMovies(largest);
    const [choice, ...otherPrefixes] = choosePrefixes(data, options.sizes, 12);
    if (!choice) throw new Error('no search prefix of the wanted selectivity in the generated titles');
    Object.assign(results.dataset, {
      vocabulary_words: data.vocabulary.length,
      search_prefix: choice.prefix,
      prefix_matches: choice.matches,
    });
    results.dataset.seeding_seconds['generate_titles'] = seconds(phase);
    log(
      `generated ${largest} movies in ${seconds(phase)} s; search prefix '${choice.prefix}' matches ${JSON.stringify(choice.matches)}`,
    );

    // The providers scenario points the catalogs at the local replay server; the allowance of provider searches
    // per user is lifted like the gateway's rate limit, or the measurement would meet it after 30 requests.
    replay = options.scenarios.has('providers') ? await startProviderReplay() : undefined;
    if (options.scenarios.has('images')) {
      // The gateway learns its image hosts at start-up.
      imageOrigin = await startImageOrigin();
      imageCacheDir = mkdtempSync(path.join(tmpdir(), 'mt-bench-image-cache-'));
    }
    log('starting the stack');
    phase = performance.now();
    bench = await startBenchStack({
      ...storeUrls,
      env: replay ? { ...replay.env, PROVIDER_SEARCHES_PER_MINUTE: '10000000' } : undefined,
      name: options.name,
      rootDir,
      profileApps: options.profileApps,
      profileDir,
      gatewayEnv: imageOrigin && imageCacheDir ? imageOriginEnv(imageOrigin, imageCacheDir) : undefined,
    });
    await waitAllReady(bench.stack, phase, 90_000);
    await waitForCategories(bench.gatewayUrl, 3);
    const gatewayUrl = bench.gatewayUrl;
    const redisPort = new URL(redis.url).port || '6379';
    const catalog = bench.stack.process('catalog-movies');
    const auth = bench.stack.process('auth-service');
    log(
      `  ready in ${seconds(phase)} s: gateway ${gatewayUrl}, catalog-movies ${catalog.url}, auth ${auth.url}`,
    );
    await sleep(2000);
    const idleMeter = cpuMeter(
      Object.fromEntries(bench.stack.processes.map((service) => [service.name, [service.pid]])),
    );
    await sleep(5000);
    results.idle_cpu_ms_per_s = Object.fromEntries(
      Object.entries(idleMeter.stop()).map(([name, ms]) => [name, round(ms / 5, 1)]),
    );
    results.rss_mb.idle_before_seeding = roundAll(stackRss(bench.stack));
    log(`  idle RSS (MB): ${JSON.stringify(results.rss_mb.idle_before_seeding)}`);
    log(`  idle CPU (ms per s): ${JSON.stringify(results.idle_cpu_ms_per_s)}`);

    log(`seeding ${options.users} users`);
    const users = await seedUsers({
      gatewayUrl,
      mongoUrl: mongo.url,
      dbName: bench.stack.mongoDbNames.auth,
      total: options.users,
      viaApi: 16,
      distinctHashes: 16,
    });
    results.dataset.users = {
      total: users.all.length,
      via_api: users.viaApi,
      direct: users.direct,
      distinct_hashes: users.distinctHashes,
      seconds: round(users.seconds, 1),
    };
    log(`  ${users.viaApi} through the API, ${users.direct} directly, in ${users.seconds.toFixed(1)} s`);
    const session = await loginAndCreatePat(gatewayUrl, users.main.username, users.main.password);

    const seeder = await openCatalogSeeder(
      mongo.url,
      required(bench.stack.mongoDbNames.catalog['movies'], 'movies database'),
      createLogger({ service: 'bench-seeder', level: 'warn' }),
    );
    const searchResults: NonNullable<BenchResults['search']>['by_size'] = [];
    try {
      let imported = 0;
      let prefixCursor = 0;
      for (const size of options.sizes) {
        phase = performance.now();
        await seeder.importEntries(data.docs.slice(imported, size));
        results.dataset.seeding_seconds[`movies_to_${size}`] = seconds(phase);
        log(`catalog: ${size} movies (imported ${size - imported} in ${seconds(phase)} s)`);
        imported = size;
        if (options.scenarios.has('search')) {
          const fresh = otherPrefixes.slice(prefixCursor, prefixCursor + 3).map((other) => other.prefix);
          prefixCursor = (prefixCursor + 3) % Math.max(1, otherPrefixes.length);
          searchResults.push(
            await measureSearch(
              gatewayUrl,
              size,
              { prefix: choice.prefix, matches: required(choice.matches[size], 'prefix matches') },
              fresh,
              options,
              log,
            ),
          );
        }
        if (results.dataset.list_entries === 0 && size >= options.listEntries) {
          phase = performance.now();
          await seedList(
            seeder,
            users.main.id,
            data.docs.slice(0, options.listEntries),
          );
          results.dataset.list_entries = options.listEntries;
          results.dataset.seeding_seconds['list_entries'] = seconds(phase);
          log(`list: ${options.listEntries} entries for ${users.main.username} in ${seconds(phase)} s`);
        }
      }
      if (options.scenarios.has('lists')) {
        // One list per size (1 000, 10 000, 50 000, bounded by the catalog), each its own user's (users 3…),
        // all seeded first, then measured taking turns.
        const sizes = LIST_SIZES.filter((n) => n <= imported);
        const lists: Array<{ entries: number; jwt: string }> = [];
        for (const [index, size] of sizes.entries()) {
          const owner = required(users.all[3 + index], `the owner of the list of ${size}`);
          phase = performance.now();
          await seedList(seeder, owner.id, data.docs.slice(0, size), 11);
          log(`lists: ${size} entries for ${owner.username} (added in ${seconds(phase)} s)`);
          lists.push({ entries: size, jwt: (await loginAndCreatePat(gatewayUrl, owner.username, owner.password)).jwt });
        }
        if (lists.length) {
          const bySize = await measureListsBySize(gatewayUrl, lists, options, log);
          // The throughput comparison at 10 000 entries (or the largest list when the catalog is smaller).
          const compared = lists.find((list) => list.entries === 10_000) ?? required(lists[lists.length - 1], 'a list');
          results.lists = {
            by_size: bySize,
            growth_p95: listGrowth(bySize),
            throughput: await compareListWithCatalog(
              gatewayUrl,
              compared.jwt,
              compared.entries,
              { catalog: catalog.pid, gateway: bench.stack.process('gateway').pid, bench: process.pid, redisPort },
              options,
              log,
            ),
          };
        }
      }
      if (options.scenarios.has('plays')) {
        log('plays: progress and up-next by number of plays, POST a play against PATCH');
        const [small, large] = [required(users.all[8], 'a user'), required(users.all[9], 'a user')];
        results.plays = await measurePlays(
          gatewayUrl,
          { mongoUrl: mongo.url, dbName: required(bench.stack.mongoDbNames.catalog['tvshows'], 'tvshows database') },
          {
            small: { id: small.id, jwt: (await loginAndCreatePat(gatewayUrl, small.username, small.password)).jwt, shows: 5, episodesPerShow: 10, cycles: 1 },
            large: { id: large.id, jwt: (await loginAndCreatePat(gatewayUrl, large.username, large.password)).jwt, shows: 50, episodesPerShow: 9, cycles: 10 },
          },
          options,
          createLogger({ service: 'bench-seeder', level: 'warn' }),
          log,
        );
      }
      if (options.scenarios.has('catalog-scale')) {
        log(`deep pages and external id lookup at ${imported} entries`);
        // A movie from the middle of the insertion order: its id is looked up by its IMDb id.
        const middle = Math.floor(imported / 2);
        results.catalog_scale = await measureCatalogScale(
          gatewayUrl,
          imported,
          { imdb: benchImdbId(middle), expectedId: required(data.docs[middle], 'a movie')._id.toHexString(), titlePrefix: choice.prefix },
          options,
          log,
        );
      }
      if (options.scenarios.has('imports')) {
        // A third user imports a Letterboxd diary whose first half is already in the catalog, then exports it.
        const importer = required(users.all[2], 'a third user');
        const importerSession = await loginAndCreatePat(gatewayUrl, importer.username, importer.password);
        log('imports: 10 000-row Letterboxd diary, then its export');
        results.imports = await measureImportExport(gatewayUrl, importerSession.jwt, data.docs.slice(0, imported), catalog.pid, log, options.repeats);
      }
    } finally {
      await seeder.close();
    }
    if (searchResults.length) {
      const first = required(searchResults[0], 'search results');
      const last = required(searchResults[searchResults.length - 1], 'search results');
      results.search = {
        by_size: searchResults,
        growth: {
          from: first.entries,
          to: last.entries,
          prefix_p95: round(last.prefix.p95 / first.prefix.p95, 2),
          sorted_p95: round(last.sorted.p95 / first.sorted.p95, 2),
        },
      };
    }

    if (options.scenarios.has('providers') && replay) {
      results.providers = await measureProviderSearch(gatewayUrl, session.jwt, choice.prefix, replay, options, log);
      log(`  provider p95 ${results.providers.provider.p95} ms, catalog p95 ${results.providers.catalog.p95} ms, upstream calls while measured: ${results.providers.upstream_calls_while_measured}`);
    }

    if (options.scenarios.has('proxy')) {
      log(`proxy overhead at ${largest} entries`);
      results.proxy = await measureProxyOverhead(
        { catalog: catalog.url, gateway: gatewayUrl, catalogPort: catalog.port },
        { catalog: catalog.pid, gateway: bench.stack.process('gateway').pid, bench: process.pid, redisPort },
        options,
        log,
      );
      log('gateway hot path: public, JWT and cached-PAT reads in front of a stub upstream (no database)');
      results.hot_path = await measureGatewayHotPath(
        {
          gateway: gatewayUrl,
          registry: bench.stack.process('registry-service').url,
          internalSecret: bench.stack.internalSecret,
          floorProfileDir: options.profileApps.includes('gateway') ? profileDir : undefined,
        },
        session,
        { gateway: bench.stack.process('gateway').pid, bench: process.pid, redisPort },
        options,
        log,
      );
    }
    if (options.scenarios.has('catalog-floor')) {
      log(`catalog service beside its floor (list of ${results.dataset.list_entries} entries)`);
      results.catalog_floor = await measureCatalogFloor(
        {
          catalog: catalog.url,
          catalogPid: catalog.pid,
          mongoUrl: mongo.url,
          dbName: required(bench.stack.mongoDbNames.catalog['movies'], 'movies database'),
          secret: bench.stack.internalSecret,
          sorting: results.meta.mongo.server !== 'mongod',
          profileDir: options.profileApps.includes('catalog-service') ? profileDir : undefined,
        },
        { id: users.main.id, itemId: required(data.docs[0], 'a listed movie')._id.toHexString(), listEntries: results.dataset.list_entries },
        options,
        log,
      );
    }
    if (options.scenarios.has('build-ab') && options.baseline) {
      log(`catalog page through the gateway: this build against ${options.baseline}, taking turns`);
      results.build_ab = await measureBuildAb(
        rootDir,
        storeUrls,
        path.resolve(options.baseline),
        options,
        log,
      );
      log(`  this build ÷ baseline: ${results.build_ab.ratio} (runs ${results.build_ab.ratio_runs.join(', ')})`);
    }
    if (options.scenarios.has('auth')) {
      log(`authentication cost (list of ${results.dataset.list_entries} entries)`);
      const gatewayMetrics = bench.stack.process('gateway').metricsUrl;
      if (!gatewayMetrics) throw new Error('the gateway was started without a metrics port');
      results.auth = await measureAuthCost(
        { gateway: gatewayUrl, gatewayMetrics },
        session,
        { gateway: bench.stack.process('gateway').pid, catalog: catalog.pid, auth: auth.pid, redisPort },
        options,
        log,
      );
    }
    if (options.scenarios.has('bulk')) {
      log('bulk-status');
      const ids = data.docs
        .slice(0, Math.min(500, results.dataset.list_entries))
        .map((doc) => doc._id.toHexString());
      results.bulk_status = await measureBulkStatus(gatewayUrl, session.jwt, ids, options, log);
    }
    if (options.scenarios.has('scrobble')) {
      const events = SCROBBLE_RATE * SCROBBLE_SECONDS;
      log(`scrobble: ${SCROBBLE_RATE} webhooks/s for ${SCROBBLE_SECONDS} s through the gateway`);
      const movies = data.docs.slice(0, Math.min(events, Math.max(...options.sizes)));
      results.scrobble = await measureScrobble(
        { gatewayUrl, imdbIds: movies.map((doc) => (doc['external_ids'] as { imdb: string }).imdb), itemIds: movies.map((doc) => doc._id.toHexString()), rate: SCROBBLE_RATE, seconds: SCROBBLE_SECONDS },
        log,
      );
    }
    if (options.scenarios.has('login')) {
      log(
        `login storm (${options.loginConcurrency} concurrent, ${options.loginDurationS} s × ${options.repeats})`,
      );
      results.login = await measureLoginStorm(
        { gateway: gatewayUrl, auth: auth.url },
        users.all.slice(0, 200),
        options,
        log,
      );
    }
    if (imageOrigin) {
      log('images: a poster from the gateway\'s image cache beside nginx serving the same file');
      results.images = await measureImageServing(
        { gateway: gatewayUrl },
        imageOrigin,
        { gateway: bench.stack.process('gateway').pid, bench: process.pid },
        options,
        log,
      );
    }
    // RSS over the first seconds of idleness after the load: V8 and the allocator give memory back lazily.
    const series: Array<{ idle_s: number; rss_mb: Record<string, number> }> = [];
    for (const at of [2, 5, 10, 20]) {
      await sleep((at - (series[series.length - 1]?.idle_s ?? 0)) * 1000);
      series.push({ idle_s: at, rss_mb: roundAll(stackRss(bench.stack)) });
    }
    results.rss_mb.after_load_series = series;
    // Judged at 20 s: V8 gives back its grown young generation and the garbage of the load only when its
    // memory reducer runs, seen 5–15 s after the load ends.
    results.rss_mb.idle_after_load = required(
      series.find((point) => point.idle_s === 20),
      'RSS at 20 s',
    ).rss_mb;
    results.rss_mb.after_load_breakdown = await memoryBreakdown(bench.stack);
    for (const point of series)
      log(`idle RSS ${point.idle_s} s after the load (MB): ${JSON.stringify(point.rss_mb)}`);
    log(`  V8 heap/external (MB): ${JSON.stringify(results.rss_mb.after_load_breakdown)}`);
    results.log_problems = {
      count: bench.problems.length,
      sample: bench.problems.slice(0, 20).map((line) => `[${line.process}] ${line.text.slice(0, 300)}`),
    };
    await bench.stop();
    bench = undefined;

    if (options.scenarios.has('coldstart')) {
      log(
        `cold start: ${options.coldStarts} fresh stacks on empty databases, then one over the benchmark data`,
      );
      const fresh = await measureColdStarts({ ...storeUrls, rootDir }, options.coldStarts, log);
      const withData = await coldStartOnce({ ...storeUrls, rootDir, name: options.name });
      log(
        `    over the benchmark data: all /readyz 200 after ${withData.all_ready_ms} ms ${JSON.stringify(withData.by_process_ms)}`,
      );
      results.cold_start = { fresh, with_data: withData };
    }

    if (options.scenarios.has('single-process')) {
      log(`single-process mode beside one process per service (list of ${results.dataset.list_entries} entries)`);
      results.single_process = await compareSingleProcess(
        {
          ...storeUrls,
          rootDir,
          name: options.name,
          login: (url) => logIn(url, users.main.username, users.main.password),
          entries: results.dataset.list_entries,
          redisPort,
        },
        options,
        log,
      );
    }

    if (options.profileApps.length) {
      const profiles = readdirSync(profileDir).filter((file) => file.endsWith('.cpuprofile'));
      results.meta.notes.push(
        `CPU profiles of ${options.profileApps.join(', ')} in tmp/bench/profiles (${profiles.length} files; the profiler itself slows those processes)`,
      );
    }
    results.meta.notes.push(
      'The services ran with LOG_LEVEL=warn (no request log lines) and RATE_LIMIT_PER_MINUTE=10000000 (the limiter still counts every request); nginx ran with one worker and no access log.',
      'Load generator, services, nginx, Redis and the database share the same cores; absolute figures move with whatever else the machine is doing, ratios much less (the compared targets take turns).',
    );
    if (results.log_problems.count) {
      results.meta.notes.push(
        `The services logged ${results.log_problems.count} warning/error lines during the run; the first ones are in latest.json (log_problems).`,
      );
    }
    results.targets = evaluateTargets(results);
    results.meta.finished_at = new Date().toISOString();
    results.meta.duration_s = seconds(runStarted);
    results.meta.load_average.end = round(loadavg()[0] ?? 0, 2);

    mkdirSync(files.dir, { recursive: true });
    writeFileSync(files.json, `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(files.markdown, renderMarkdown(results));
    log(renderConsole(results));
    log(
      `\nwritten: ${path.relative(rootDir, files.json)}, ${path.relative(rootDir, files.markdown)} (${results.meta.duration_s} s)`,
    );
    if (results.log_problems.count)
      log(`${results.log_problems.count} warning/error lines from the services (sample in the JSON file)`);
  } finally {
    if (bench) await bench.stop().catch(() => undefined);
    await replay?.close();
    await imageOrigin?.stop();
    if (imageCacheDir) rmSync(imageCacheDir, { recursive: true, force: true });
    if (!options.keepData)
      await dropBenchData(storeUrls, options.name).catch((error: Error) =>
        log(`clean-up failed: ${error.message}`),
      );
    await Promise.all(stores.map((store) => store.stop().catch(() => undefined)));
  }
}

function roundAll(values: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, round(value, 1)]));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
