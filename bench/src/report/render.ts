import { figures, formatNumber, formatSpread } from '../../tools/figures.mjs';
import { describeMachine } from '../machine/probe';
import type { AuthResults } from '../scenarios/auth';
import type { ThroughputStats } from '../scenarios/compare';
import { FLOOR_REQUESTS, type FloorRequest } from '../scenarios/catalog-floor';
import type { BenchResults } from './results';
import { required } from '../required';

interface Section {
  title: string;
  header: string[];
  rows: string[][];
  notes?: string[];
}

const n0 = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(0);
const n2 = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(2);
const signed = (value: number | undefined) =>
  value === undefined ? '—' : `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
const signed0 = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '—' : `${value >= 0 ? '+' : ''}${value.toFixed(0)}`;
const pct = (ratio: number | undefined) => (ratio === undefined ? '—' : `${(ratio * 100).toFixed(1)} %`);

/** "CPU per request (µs, user + system): direct: catalog 850, …" — only the processes that did work. */
function cpuNotes(throughput: Record<string, ThroughputStats>): string[] {
  const parts = Object.entries(throughput).flatMap(([name, t]) => {
    if (!t.cpu_us_per_request) return [];
    const used = Object.entries(t.cpu_us_per_request).filter(([, us]) => us >= 20);
    return [`${name}: ${used.map(([process, us]) => `${process} ${us}`).join(', ')}`];
  });
  return parts.length ? [`CPU per request (µs, user + system, from /proc): ${parts.join('; ')}`] : [];
}

function sections(results: BenchResults): Section[] {
  const out: Section[] = [];
  const { proxy, hot_path: hotPath, auth, search, login, bulk_status: bulk, cold_start: cold, rss_mb: rss } = results;

  if (proxy) {
    const rows = Object.entries(proxy.throughput).map(([name, t]) => {
      const unloaded = required(proxy.unloaded_latency[name], `latency of ${name}`);
      const added = name === 'direct' ? undefined : proxy.added_ms[name as 'gateway' | 'nginx'];
      return [
        name,
        n0(t.rps),
        n2(t.p50),
        n2(t.p99),
        n2(unloaded.p50),
        n2(unloaded.p99),
        signed(added?.p50),
        signed(added?.p99),
      ];
    });
    out.push({
      title: `Proxy overhead — GET ${proxy.route}`,
      header: [
        'path',
        'req/s',
        'p50 ms (load)',
        'p99 ms (load)',
        'p50 ms (1 at a time)',
        'p99 ms (1 at a time)',
        'added p50 ms',
        'added p99 ms',
      ],
      rows,
      notes: [
        `gateway ÷ nginx throughput ${pct(proxy.ratios.gateway_vs_nginx)}, gateway ÷ direct ${pct(proxy.ratios.gateway_vs_direct)}, nginx ÷ direct ${pct(proxy.ratios.nginx_vs_direct)}`,
        'version' in proxy.nginx ? `nginx: ${proxy.nginx.version}` : proxy.nginx.skipped,
        ...cpuNotes(proxy.throughput),
      ],
    });
  }
  if (hotPath) {
    const cpuOf: Record<string, { raw: number; net: number; above_floor?: number } | undefined> = {
      gateway_public: hotPath.gateway_cpu_us.public,
      gateway_jwt: hotPath.gateway_cpu_us.jwt,
      gateway_pat: hotPath.gateway_cpu_us.pat,
    };
    const direct = hotPath.unloaded_latency['direct'];
    out.push({
      title: 'Gateway hot path (issue 21) — the same 8 kB page from a stub upstream (no database)',
      header: ['path', 'request', 'req/s', 'gateway CPU µs/req', 'net of idle µs', 'above the floor µs', 'p50 ms (load)', 'p50 ms (1 at a time)', 'added p50 ms'],
      rows: Object.entries(hotPath.throughput).map(([name, t]) => {
        const unloaded = hotPath.unloaded_latency[name];
        return [
          name,
          name.endsWith('jwt') || name.endsWith('pat') ? hotPath.routes.scoped : hotPath.routes.public,
          n0(t.rps),
          cpuOf[name] ? n0(cpuOf[name]?.raw) : '—',
          cpuOf[name] ? n0(cpuOf[name]?.net) : '—',
          cpuOf[name]?.above_floor !== undefined ? signed0(cpuOf[name]?.above_floor) : name === 'floor' ? `${n0(hotPath.floor_cpu_us)} (itself)` : '—',
          n2(t.p50),
          n2(unloaded?.p50),
          name === 'direct' || !unloaded || !direct ? '—' : signed(unloaded.p50 - direct.p50),
        ];
      }),
      notes: [
        `gateway (public) ÷ nginx throughput ${pct(hotPath.ratios.gateway_vs_nginx)}, ÷ direct ${pct(hotPath.ratios.gateway_vs_direct)}; gateway idle CPU just before: ${hotPath.gateway_idle_cpu_ms_per_s} ms/s (subtracted for "net")`,
        'gateway CPU µs/req = the gateway process\'s user + system CPU over the run (/proc) ÷ the 2xx answers of the run: every request is a proxied one; idle timers (route-table refresh, rate-limit sync) are included in the raw figure',
        'version' in hotPath.nginx ? `nginx: ${hotPath.nginx.version}` : hotPath.nginx.skipped,
        ...(hotPath.floor_cpu_us !== undefined
          ? ['floor: express + http-proxy-middleware with the app prototypes and the request context in AsyncLocalStorage, nothing of the gateway (bench/src/micro/proxy-floor.ts); "above the floor" = the gateway\'s raw CPU per request less the floor\'s in the same run']
          : []),
        ...cpuNotes(hotPath.throughput),
      ],
    });
  }
  if (results.catalog_floor) {
    const floor = results.catalog_floor;
    out.push({
      title: `Catalog service beside its floor (issue 42) — straight at each, list of ${floor.list_entries} entries`,
      header: ['request', 'service CPU µs/req', 'floor CPU µs/req', 'service ÷ floor', 'net of idle µs/req (service / floor)', 'net ÷', 'service req/s', 'floor req/s', 'database µs/req (service / floor)'],
      rows: (Object.keys(FLOOR_REQUESTS) as FloorRequest[]).map((name) => {
        const row = floor.requests[name];
        return [
          FLOOR_REQUESTS[name],
          `${n0(row.service_cpu_us)} (${row.service.runs.map((run) => n0(((run.cpu_ms?.['service'] ?? 0) * 1000) / run.ok)).join(', ')})`,
          `${n0(row.floor_cpu_us)} (${row.floor.runs.map((run) => n0(((run.cpu_ms?.['floor'] ?? 0) * 1000) / run.ok)).join(', ')})`,
          `${row.ratio.toFixed(2)}×`,
          `${n0(row.net.service_cpu_us)} / ${n0(row.net.floor_cpu_us)}`,
          `${row.net.ratio.toFixed(2)}×`,
          n0(row.service.rps),
          n0(row.floor.rps),
          `${n0(row.service.cpu_us_per_request?.['database'])} / ${n0(row.floor.cpu_us_per_request?.['database'])}`,
        ];
      }),
      notes: [
        'floor: bench/src/stack/catalog-floor.ts — express with the app prototypes, the mongoose connection\'s native collections, the request id in AsyncLocalStorage, the signed identity checked, the same statements, projections, sort orders and JSON; no validation library, error payloads, logging, metrics or layers',
        'CPU µs/req: each process\'s user + system CPU from /proc over its own runs ÷ its 2xx answers, median (per run in brackets); the two take turns run by run',
        `net of idle: less each process's idle rate, the lower of a reading before and one after the runs (service ${floor.idle_cpu_ms_per_s.service} ms/s, floor ${floor.idle_cpu_ms_per_s.floor} ms/s: timers, heartbeats, the event consumer)`,
      ],
    });
  }
  if (results.build_ab) {
    const ab = results.build_ab;
    out.push({
      title: `Two builds taking turns (issue 42) — ${ab.route} through each one's gateway`,
      header: ['build', 'req/s', 'p50 ms (load)', 'p99 ms (load)', 'gateway CPU µs/req', 'catalog CPU µs/req', 'database µs/req'],
      rows: (['baseline', 'this_build'] as const).map((name) => {
        const t = ab.throughput[name];
        const cpu = t.cpu_us_per_request ?? {};
        const prefix = name === 'baseline' ? 'baseline_' : '';
        return [name === 'baseline' ? `baseline (${ab.baseline})` : 'this build', n0(t.rps), n2(t.p50), n2(t.p99), n0(cpu[`${prefix}gateway`]), n0(cpu[`${prefix}catalog`]), n0(cpu['database'])];
      }),
      notes: [`this build ÷ baseline throughput ${ab.ratio.toFixed(2)}× (per pair of runs: ${ab.ratio_runs.map((r) => r.toFixed(2)).join(', ')})`],
    });
  }
  if (auth) {
    out.push({
      title: 'Authentication cost — through the gateway',
      header: [
        'credential',
        'request',
        'req/s',
        'p50 ms (load)',
        'p99 ms (load)',
        'p50 ms (1 at a time)',
        'p99 ms (1 at a time)',
      ],
      rows: Object.entries(auth.throughput).map(([name, t]) => [
        name,
        auth.routes[name as keyof AuthResults['routes']],
        n0(t.rps),
        n2(t.p50),
        n2(t.p99),
        n2(auth.unloaded_latency[name]?.p50),
        n2(auth.unloaded_latency[name]?.p99),
      ]),
      notes: [
        `cached PAT ÷ JWT throughput ${pct(auth.ratios.pat_vs_jwt)}; JWT list ÷ public read ${pct(auth.ratios.jwt_vs_public)}`,
        `gateway PAT cache during these runs: ${auth.pat_cache.hits} hits, ${auth.pat_cache.misses} misses`,
        ...cpuNotes(auth.throughput),
      ],
    });
  }
  if (search?.by_size.length) {
    const first = required(search.by_size[0], 'search results');
    out.push({
      title: `Search at scale — through the gateway, one request at a time (q=${new URLSearchParams(first.prefix_query.split('?')[1]).get('q')}, sort=year)`,
      header: [
        'entries',
        'prefix matches',
        'prefix p50 ms',
        'prefix p95 ms',
        'sort=year p50 ms',
        'sort=year p95 ms',
        'first-time prefix p50 ms',
      ],
      rows: search.by_size.map((s) => [
        String(s.entries),
        String(s.prefix_matches),
        n2(s.prefix.p50),
        n2(s.prefix.p95),
        n2(s.sorted.p50),
        n2(s.sorted.p95),
        n2(s.first_time_prefix.p50),
      ]),
      notes: [
        `p95 growth ${search.growth.from} → ${search.growth.to}: prefix ${search.growth.prefix_p95.toFixed(2)}×, sort=year ${search.growth.sorted_p95.toFixed(2)}×`,
        'first-time prefix: other prefixes of similar selectivity, each searched once right after the catalog reached this size (match counts not cached yet)',
      ],
    });
  }
  if (login) {
    out.push({
      title: `Login storm — argon2id logins at concurrency ${login.concurrency} through the gateway (${login.users} users)`,
      header: ['probe', 'idle p50 ms', 'idle p99 ms', 'storm p50 ms', 'storm p99 ms', 'storm max ms'],
      rows: Object.keys(login.livez_during).map((name) => [
        `/livez ${name}`,
        n2(login.livez_idle[name]?.p50),
        n2(login.livez_idle[name]?.p99),
        n2(login.livez_during[name]?.p50),
        n2(login.livez_during[name]?.p99),
        n2(login.livez_during[name]?.max),
      ]),
      notes: [
        `${login.logins_per_s.toFixed(1)} logins/s, login p50 ${n0(login.login_p50)} ms, p99 ${n0(login.login_p99)} ms`,
      ],
    });
  }
  const lists = results.lists;
  if (lists) {
    out.push({
      title: 'Lists at scale (issue 17) — one request at a time through the gateway, every size taking turns, p50 / p95 ms',
      header: ['list entries', ...Object.keys(lists.growth_p95)],
      rows: lists.by_size.map((size) => [
        String(size.entries),
        ...Object.values(size.latency).map((stats) => `${n2(stats.p50)} / ${n2(stats.p95)}`),
      ]),
      notes: [
        `p95 growth: ${Object.entries(lists.growth_p95).map(([route, growth]) => `${route} ${growth}×`).join(', ')}`,
        ...(lists.throughput
          ? [
              `list of ${lists.throughput.entries}: ${n0(lists.throughput.list.rps)} req/s vs public catalog page ${n0(lists.throughput.catalog.rps)} req/s (${(lists.throughput.ratio * 100).toFixed(0)} %)`,
              ...cpuNotes({ list: lists.throughput.list, catalog: lists.throughput.catalog }),
            ]
          : []),
      ],
    });
  }
  const scale = results.catalog_scale;
  if (scale) {
    const cell = (stats: { p50: number; p95: number }) => `${n2(stats.p50)} / ${n2(stats.p95)}`;
    out.push({
      title: `Deep pages and external id lookup (${scale.entries} entries, through the gateway, p50 / p95 ms)`,
      header: ['request', 'page 1', `page ${scale.deep_page}`, 'deep ÷ page 1 (p50 / p95)'],
      rows: [
        ['offset (`page=`)', cell(scale.pages.offset_first), cell(scale.pages.offset_deep), `${n2(scale.ratios.offset_p50)}× / ${n2(scale.ratios.offset_p95)}×`],
        ['cursor (`cursor=`)', cell(scale.pages.cursor_first), cell(scale.pages.cursor_deep), `${n2(scale.ratios.cursor_p50)}× / ${n2(scale.ratios.cursor_p95)}×`],
        ['`?external_id=imdb:…`', cell(scale.lookup.external_id), '', `p95 ${n2(scale.lookup.ratio_p95)}× the title search`],
        [`title search \`${scale.lookup.title_query.replace(/^\/api\/v1\/movies/, '')}\``, cell(scale.lookup.title_search), '', ''],
      ],
      notes: [`limit ${scale.limit}, default (title) order; the deep cursor is the next_cursor of offset page ${scale.deep_page - 1}`],
    });
  }
  const other: string[][] = [];
  if (results.imports) {
    const { import: run, export: exports } = results.imports;
    other.push([`import of ${run.rows} Letterboxd rows (${run.matching_existing} matching)`, `${run.seconds} s, ${n0(run.rows_per_s)} rows/s, catalog RSS +${run.catalog_rss_growth_mb} MB`]);
    for (const exported of exports) other.push([`export of ${exported.entries} entries (${exported.format}, median of ${exported.runs_entries_per_s.length})`, `${exported.seconds} s, ${n0(exported.entries_per_s)} entries/s (runs: ${exported.runs_entries_per_s.map(n0).join(', ')}; load ${exported.load_avg_1m.join(', ')}), catalog RSS +${exported.catalog_rss_growth_mb} MB`]);
  }
  if (bulk)
    other.push([
      `bulk-status of ${bulk.ids} ids (median of ${bulk.runs_ms.length})`,
      `${n0(bulk.median_ms)} ms (min ${n0(bulk.min_ms)}, max ${n0(bulk.max_ms)})`,
    ]);
  if (results.scrobble) {
    const s = results.scrobble;
    other.push([`scrobble webhooks, ${s.rate_per_s}/s for ${s.seconds} s`, `202 p50 ${s.p50_ms} ms, p95 ${s.p95_ms} ms, p99 ${s.p99_ms} ms; ${s.recorded} of ${s.events} recorded, the last ${n0(s.max_record_lag_ms)} ms after its 202; ${s.recorded_twice} twice`]);
  }
  if (cold) {
    other.push([
      `cold start, fresh databases (median of ${cold.fresh.runs.length})`,
      `${(cold.fresh.median_ms / 1000).toFixed(2)} s to every /readyz 200`,
    ]);
    if (cold.with_data)
      other.push([
        'cold start over the benchmark data',
        `${(cold.with_data.all_ready_ms / 1000).toFixed(2)} s to every /readyz 200`,
      ]);
  }
  if (other.length) out.push({ title: 'Bulk and start-up', header: ['measurement', 'result'], rows: other });
  const single = results.single_process;
  if (single) {
    const row = (mode: string, m: typeof single.multi) => [
      mode,
      String(m.processes),
      n0(m.idle_rss_mb.total),
      n0(m.after_load_rss_mb.total),
      n0(m.after_load_idle_20s_rss_mb.total),
      n0(m.throughput.catalog.rps),
      n0(m.throughput.list.rps),
    ];
    const store = (mb: number | null) => (mb === null ? 'not a local process' : `${n0(mb)} MB`);
    out.push({
      title: `Single-process mode (issue 41) — the whole stack, same data, each mode started fresh and measured alone`,
      header: ['mode', 'processes', 'idle RSS MB', 'RSS after the load MB', '20 s later MB', 'catalog page req/s', `list page req/s (${single.multi.throughput.entries} entries)`],
      rows: [row('one process per service', single.multi), row('single process', single.single)],
      notes: [
        `single ÷ apart: catalog page ${pct(single.ratio.catalog)}, list page ${pct(single.ratio.list)}`,
        `RSS of every process the launcher started, stores excluded; beside them MongoDB ${store(single.stores_rss_mb.mongo)}, Redis ${store(single.stores_rss_mb.redis)}`,
        `apart, by process (idle MB): ${Object.entries(single.multi.idle_rss_mb.by_process).map(([name, mb]) => `${name} ${n0(mb)}`).join(', ')}`,
      ],
    });
  }
  const images = results.images;
  if (images) {
    out.push({
      title: `Images (issue 39) — a ${n0(images.bytes / 1024)} KiB poster from the gateway's image cache (GET ${images.route}) beside nginx serving the same file`,
      header: ['server', 'req/s', 'p50 ms (load)', 'p99 ms (load)', 'p50 ms (1 at a time)', 'p99 ms (1 at a time)'],
      rows: Object.entries(images.throughput).map(([name, t]) => {
        const unloaded = required(images.unloaded_latency[name], `latency of ${name}`);
        return [name, n0(t.rps), n2(t.p50), n2(t.p99), n2(unloaded.p50), n2(unloaded.p99)];
      }),
      notes: [
        `gateway ÷ nginx throughput ${pct(images.ratios.gateway_vs_nginx)}; the image host was asked ${images.origin_requests} time(s) in all`,
        ...(images.ratios.floors_vs_nginx
          ? [
              `floors ÷ nginx (the poster from memory, no gateway logic; bench/src/stack/image-floor.ts): ${Object.entries(images.ratios.floors_vs_nginx)
                .map(([name, ratio]) => `${name} ${pct(ratio)}`)
                .join(', ')}`,
            ]
          : []),
        'version' in images.nginx ? `nginx: ${images.nginx.version} (sendfile)` : images.nginx.skipped,
        ...cpuNotes(images.throughput),
      ],
    });
  }
  if (rss.idle_before_seeding || rss.idle_after_load) {
    const names = Object.keys(rss.idle_before_seeding ?? rss.idle_after_load ?? {});
    out.push({
      title: 'Idle RSS (VmRSS) per process',
      header: ['process', 'idle before seeding MB', 'idle after the load MB'],
      rows: names.map((name) => [name, n0(rss.idle_before_seeding?.[name]), n0(rss.idle_after_load?.[name])]),
    });
  }
  out.push(noiseSection(results));
  out.push({
    title: 'Targets',
    header: ['target', 'goal', 'measured', 'verdict'],
    rows: results.targets.map((t) => [
      t.description,
      t.target,
      t.measured,
      t.note ? `${t.verdict} (${t.note})` : t.verdict,
    ]),
  });
  return out;
}

/** Every named figure with its repetitions and spread, so a reader can tell a change between two runs from noise. */
function noiseSection(results: BenchResults): Section {
  return {
    title: 'Run-to-run noise',
    header: ['figure', 'median', 'repetitions', 'spread'],
    rows: figures(results).flatMap(({ label, unit, readings: [reading] }) =>
      reading
        ? [[label, `${formatNumber(reading.value)} ${unit}`, reading.runs?.map(formatNumber).join(', ') ?? '—', formatSpread(reading)]]
        : [],
    ),
    notes: [
      'spread = (max − min) ÷ median of the repetitions. A difference between two runs smaller than the larger of their spreads is within noise: `node bench/tools/compare.mjs <older.json> <newer.json>` judges two result files this way.',
      'Ratios and added latencies are taken from the same repetition (the compared variants take turns): their repetitions are the per-repetition pairs.',
    ],
  };
}

export function renderConsole(results: BenchResults): string {
  const lines: string[] = [];
  for (const section of sections(results)) {
    lines.push('', section.title);
    const widths = section.header.map((cell, i) =>
      Math.max(cell.length, ...section.rows.map((row) => (row[i] ?? '').length)),
    );
    const line = (cells: string[]) =>
      '  ' +
      cells
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join('  ');
    lines.push(line(section.header), '  ' + widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of section.rows) lines.push(line(row));
    for (const note of section.notes ?? []) lines.push(`  ${note}`);
  }
  return lines.join('\n');
}

export function renderMarkdown(results: BenchResults): string {
  const { meta, dataset } = results;
  const lines = [
    '# Benchmark results',
    '',
    `Run ${meta.started_at} (${meta.duration_s?.toFixed(0) ?? '?'} s) with \`npm run bench\`${meta.quick ? ' --quick (smoke run, not representative)' : ''}. ` +
      `Node ${meta.node}, ${meta.cpus} × ${meta.cpu_model}, ${meta.memory_gb} GB; load average ${meta.load_average.start.toFixed(2)} at the start, ${meta.load_average.end?.toFixed(2) ?? '?'} at the end; ${describeMachine(meta.machine)}. ` +
      `MongoDB: ${meta.mongo.server} ${meta.mongo.version}; Redis ${meta.redis}.`,
    '',
    `Data: ${dataset.sizes.join(' → ')} movies (${dataset.vocabulary_words}-word Zipf vocabulary with accents), ${dataset.users.total} users ` +
      `(${dataset.users.via_api} registered through the API, ${dataset.users.direct} inserted with the auth service's repository and hasher), ` +
      `${dataset.list_entries} list entries for the benchmark user. Every figure is the median of ${String(meta.settings['repeats'])} runs measured in this one run; ` +
      `ratios compare runs taken side by side (targets interleaved).`,
  ];
  for (const section of sections(results)) {
    lines.push(
      '',
      `## ${section.title}`,
      '',
      `| ${section.header.join(' | ')} |`,
      `|${section.header.map((_, i) => (i === 0 ? ':--' : '--:')).join('|')}|`,
    );
    for (const row of section.rows) lines.push(`| ${row.join(' | ')} |`);
    if (section.notes?.length) lines.push('', ...section.notes.map((note) => `- ${note}`));
  }
  if (meta.notes.length) lines.push('', '## Notes', '', ...meta.notes.map((note) => `- ${note}`));
  lines.push('', 'Raw figures (every repetition): [latest.json](latest.json).', '');
  return lines.join('\n');
}
