import { CATALOG_FLOOR_FACTOR, FLOOR_REQUESTS, type FloorRequest } from '../scenarios/catalog-floor';
import type { BenchResults, TargetResult } from './results';
import { required } from '../required';

const pct = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
const ms = (value: number) => `${value.toFixed(2)} ms`;

function check(
  id: string,
  description: string,
  target: string,
  measured: string,
  pass: boolean,
  note?: string,
): TargetResult {
  return { id, description, target, measured, verdict: pass ? 'PASS' : 'FAIL', ...(note ? { note } : {}) };
}

const skip = (id: string, description: string, target: string, note: string): TargetResult => ({
  id,
  description,
  target,
  measured: '—',
  verdict: 'SKIP',
  note,
});

/** The targets, each judged on this run's medians. */
export function evaluateTargets(results: BenchResults): TargetResult[] {
  const targets: TargetResult[] = [];
  const { proxy, hot_path: hotPath, auth, search, login, bulk_status: bulk, cold_start: cold, rss_mb: rss } = results;

  if (proxy?.ratios.gateway_vs_nginx !== undefined) {
    targets.push(
      check(
        'proxy_throughput',
        'Gateway throughput vs nginx, route 1',
        '≥ 92 %',
        pct(proxy.ratios.gateway_vs_nginx),
        proxy.ratios.gateway_vs_nginx >= 0.92,
      ),
    );
  } else {
    targets.push(
      skip(
        'proxy_throughput',
        'Gateway throughput vs nginx, route 1',
        '≥ 92 %',
        proxy ? 'nginx absent' : 'not measured',
      ),
    );
  }
  if (proxy) {
    const added = proxy.added_ms.gateway.p50;
    const vsNginx = proxy.added_ms.nginx
      ? `; vs nginx +${(added - proxy.added_ms.nginx.p50).toFixed(2)} ms`
      : '';
    targets.push(
      check(
        'proxy_added_p50',
        'Gateway added p50 latency (unloaded, vs direct)',
        '≤ 0.5 ms',
        `+${ms(added)}${vsNginx}`,
        added <= 0.5,
      ),
    );
  } else targets.push(skip('proxy_added_p50', 'Gateway added p50 latency', '≤ 0.5 ms', 'not measured'));

  // Issue 42 (replacing issue 21's absolute figures): the gateway's CPU per proxied request, in front of the
  // stub upstream, above its building blocks' floor measured in the same run.
  for (const [name, label, limit] of [
    ['public', 'anonymous public read', 120],
    ['jwt', 'JWT read', 160],
    ['pat', 'cached-PAT read', 160],
  ] as const) {
    const description = `Gateway CPU per proxied request above its floor, ${label}`;
    const cpu = hotPath?.gateway_cpu_us[name];
    if (!cpu || !Number.isFinite(cpu.raw) || cpu.above_floor === undefined || !Number.isFinite(cpu.above_floor))
      targets.push(skip(`gateway_cpu_${name}`, description, `≤ floor + ${limit} µs`, 'not measured'));
    else
      targets.push(
        check(
          `gateway_cpu_${name}`,
          description,
          `≤ floor + ${limit} µs`,
          `${cpu.raw} µs, floor ${hotPath?.floor_cpu_us} µs: +${cpu.above_floor} µs`,
          cpu.above_floor <= limit,
        ),
      );
  }

  // Issue 42: the catalog's CPU per request against its floor, measured side by side.
  for (const name of Object.keys(FLOOR_REQUESTS) as FloorRequest[]) {
    const description = `Catalog CPU per request ÷ its floor, ${FLOOR_REQUESTS[name]}`;
    const row = results.catalog_floor?.requests[name];
    if (!row) targets.push(skip(`catalog_floor_${name}`, description, `≤ ${CATALOG_FLOOR_FACTOR}×`, 'not measured'));
    else
      targets.push(
        check(`catalog_floor_${name}`, description, `≤ ${CATALOG_FLOOR_FACTOR}×`, `${row.ratio.toFixed(2)}× (${row.service_cpu_us} vs ${row.floor_cpu_us} µs)`, row.ratio <= CATALOG_FLOOR_FACTOR),
      );
  }

  if (results.providers) {
    const { provider, catalog, upstream_calls_while_measured: calls } = results.providers;
    targets.push(
      check(
        'provider_search_p95',
        'Provider search p95 (warm cache) vs catalog search p95, same run',
        '≤ catalog',
        `${ms(provider.p95)} vs ${ms(catalog.p95)}`,
        provider.p95 <= catalog.p95 && calls === 0,
        calls === 0 ? undefined : `${calls} upstream calls during the measurement: the cache did not answer`,
      ),
    );
  } else targets.push(skip('provider_search_p95', 'Provider search p95 (warm cache) vs catalog search p95, same run', '≤ catalog', 'not measured'));
  if (results.build_ab) {
    const ab = results.build_ab;
    targets.push(check('build_ab_catalog_page', 'Catalog page through the gateway, this build ÷ the baseline build', '≥ 1.5×', `${ab.ratio.toFixed(2)}×`, ab.ratio >= 1.5));
  }

  if (auth) {
    targets.push(
      check(
        'pat_vs_jwt',
        'Cached PAT throughput vs JWT',
        '≥ 95 %',
        pct(auth.ratios.pat_vs_jwt),
        auth.ratios.pat_vs_jwt >= 0.95,
      ),
    );
  } else targets.push(skip('pat_vs_jwt', 'Cached PAT throughput vs JWT', '≥ 95 %', 'not measured'));

  if (search?.by_size.length) {
    const largest = required(search.by_size[search.by_size.length - 1], 'search results');
    const note = largest.entries < 100_000 ? `largest size measured was ${largest.entries}` : undefined;
    targets.push(
      check(
        'search_p95',
        `Prefix search p95 at ${largest.entries} entries`,
        '≤ 25 ms',
        ms(largest.prefix.p95),
        largest.prefix.p95 <= 25,
        note,
      ),
    );
    targets.push(
      check(
        'search_growth',
        `Prefix search p95 growth ${search.growth.from} → ${search.growth.to}`,
        '≤ 2×',
        `${search.growth.prefix_p95.toFixed(2)}×`,
        search.growth.prefix_p95 <= 2,
      ),
    );
  } else {
    targets.push(skip('search_p95', 'Prefix search p95 at 100 000 entries', '≤ 25 ms', 'not measured'));
    targets.push(skip('search_growth', 'Prefix search p95 growth', '≤ 2×', 'not measured'));
  }

  if (login) {
    for (const [name, stats] of Object.entries(login.livez_during)) {
      targets.push(
        check(
          `livez_p99_${name}`,
          `/livez p99 on ${name} during the login storm`,
          '≤ 20 ms',
          ms(stats.p99),
          stats.p99 <= 20,
        ),
      );
    }
  } else targets.push(skip('livez_p99', '/livez p99 during the login storm', '≤ 20 ms', 'not measured'));

  if (bulk)
    targets.push(
      check(
        'bulk_status',
        `Bulk-status of ${bulk.ids} ids (median)`,
        '≤ 150 ms',
        ms(bulk.median_ms),
        bulk.median_ms <= 150,
      ),
    );
  else targets.push(skip('bulk_status', 'Bulk-status of 500 ids', '≤ 150 ms', 'not measured'));

  const plays = results.plays;
  if (plays) {
    const of = `${plays.large.shows} shows / ${plays.large.plays} plays vs ${plays.small.shows} / ${plays.small.plays}`;
    targets.push(check('plays_progress_growth', `progress p95 growth (${of})`, '≤ 1.5×', `${plays.growth_p95.progress}×`, plays.growth_p95.progress <= 1.5));
    targets.push(check('plays_up_next_growth', `up-next p95 growth (${of})`, '≤ 1.5×', `${plays.growth_p95.up_next}×`, plays.growth_p95.up_next <= 1.5));
    targets.push(check('plays_post_vs_patch', 'POST a play p95 ÷ PATCH of the entry p95', '≤ 2×', `${plays.play_vs_patch_p95}×`, plays.play_vs_patch_p95 <= 2));
  } else targets.push(skip('plays', 'progress, up-next and POST a play', '≤ 1.5× / ≤ 2×', 'not measured'));

  const scrobble = results.scrobble;
  if (scrobble) {
    targets.push(check('scrobble_accept_p95', `Scrobble webhook 202, p95 at ${scrobble.rate_per_s}/s`, '≤ 100 ms', ms(scrobble.p95_ms), scrobble.p95_ms <= 100 && scrobble.refused === 0));
    targets.push(
      check('scrobble_recorded', `Every scrobbled play recorded, none twice (${scrobble.events} events)`, '≤ 5 s after its 202', `${scrobble.recorded} recorded, last after ${ms(scrobble.max_record_lag_ms)}, ${scrobble.recorded_twice} twice`, scrobble.recorded === scrobble.events && scrobble.max_record_lag_ms <= 5000 && scrobble.recorded_twice === 0),
    );
  } else targets.push(skip('scrobble_accept_p95', 'Scrobble webhook 202, p95 at 50/s', '≤ 100 ms', 'not measured'));

  const scale = results.catalog_scale;
  if (scale) {
    const note = scale.entries < 100_000 ? `catalog of ${scale.entries}` : undefined;
    targets.push(
      check(
        'cursor_deep_page',
        `Cursor page ${scale.deep_page} vs page 1 (limit ${scale.limit}), p50 and p95`,
        '≤ 1.5×',
        `${scale.ratios.cursor_p50.toFixed(2)}× / ${scale.ratios.cursor_p95.toFixed(2)}× (offset: ${scale.ratios.offset_p50.toFixed(2)}× / ${scale.ratios.offset_p95.toFixed(2)}×)`,
        scale.ratios.cursor_p50 <= 1.5 && scale.ratios.cursor_p95 <= 1.5,
        note,
      ),
    );
    targets.push(
      check(
        'external_id_lookup',
        `External id lookup p95 vs title search p95 at ${scale.entries} entries`,
        '≤ 1×',
        `${ms(scale.lookup.external_id.p95)} vs ${ms(scale.lookup.title_search.p95)}`,
        scale.lookup.external_id.p95 <= scale.lookup.title_search.p95,
        note,
      ),
    );
  } else {
    targets.push(skip('cursor_deep_page', 'Cursor page 2 000 vs page 1', '≤ 1.5×', 'not measured'));
    targets.push(skip('external_id_lookup', 'External id lookup p95 vs title search p95', '≤ 1×', 'not measured'));
  }
  const imports = results.imports;
  if (imports) {
    const { import: run } = imports;
    targets.push(check('import_rate', `Import of ${run.rows} Letterboxd rows (${run.matching_existing} matching), end to end`, '≥ 1 000 rows/s', `${run.rows_per_s} rows/s`, run.rows_per_s >= 1000));
    for (const exported of imports.export)
      targets.push(check(`export_rate_${exported.format}`, `Export of ${exported.entries} entries (${exported.format})`, '≥ 10 000 entries/s', `${exported.entries_per_s} entries/s`, exported.entries_per_s >= 10_000));
    const growth = Math.max(run.catalog_rss_growth_mb, ...imports.export.map((exported) => exported.catalog_rss_growth_mb));
    targets.push(check('import_export_rss', 'Catalog RSS growth during the import or an export', '≤ 50 MB', `${growth} MB`, growth <= 50));
  } else targets.push(skip('import_rate', 'Import of 10 000 Letterboxd rows', '≥ 1 000 rows/s', 'not measured'));

  const lists = results.lists;
  if (lists?.throughput)
    targets.push(
      check(
        'list_throughput',
        `List page throughput vs a public catalog page (list of ${lists.throughput.entries})`,
        '≥ 60 %',
        pct(lists.throughput.ratio),
        lists.throughput.ratio >= 0.6,
      ),
    );
  else targets.push(skip('list_throughput', 'List page throughput vs a public catalog page', '≥ 60 %', 'not measured'));
  if (lists && lists.by_size.length > 1) {
    const from = lists.by_size[0]?.entries;
    const to = lists.by_size[lists.by_size.length - 1]?.entries;
    for (const [route, growth] of Object.entries(lists.growth_p95))
      targets.push(check(`list_growth_${route}`, `${route} p95 growth, list of ${from} → ${to}`, '≤ 1.5×', `${growth.toFixed(2)}×`, growth <= 1.5));
  } else targets.push(skip('list_growth', 'List routes p95 growth 1 000 → 50 000', '≤ 1.5×', 'not measured'));

  if (cold) {
    const withData = cold.with_data ? `; with data ${(cold.with_data.all_ready_ms / 1000).toFixed(1)} s` : '';
    targets.push(
      check(
        'cold_start',
        'Cold start, every /readyz 200 (median)',
        '≤ 15 s',
        `${(cold.fresh.median_ms / 1000).toFixed(1)} s${withData}`,
        cold.fresh.median_ms <= 15_000,
      ),
    );
  } else targets.push(skip('cold_start', 'Cold start', '≤ 15 s', 'not measured'));

  const single = results.single_process;
  if (single) {
    const mb = (value: number) => `${value.toFixed(0)} MB`;
    targets.push(
      check('single_process_idle_rss', 'Single process: idle RSS of the whole stack (stores excluded)', '≤ 200 MB', `${mb(single.single.idle_rss_mb.total)} (apart: ${mb(single.multi.idle_rss_mb.total)})`, single.single.idle_rss_mb.total <= 200),
      check(
        'single_process_after_load_rss',
        'Single process: RSS after the list load (right after; 20 s later)',
        '≤ 260 MB',
        `${mb(single.single.after_load_rss_mb.total)}; ${mb(single.single.after_load_idle_20s_rss_mb.total)} (apart: ${mb(single.multi.after_load_rss_mb.total)})`,
        single.single.after_load_rss_mb.total <= 260,
      ),
      check('single_process_catalog_rps', 'Single process: catalog page throughput, share of one process per service', '≥ 70 %', pct(single.ratio.catalog), single.ratio.catalog >= 0.7),
      check('single_process_list_rps', 'Single process: list page throughput, share of one process per service', '≥ 70 %', pct(single.ratio.list), single.ratio.list >= 0.7),
    );
  } else targets.push(skip('single_process', 'Single process: memory and throughput beside one process per service', '≤ 200 MB idle, ≥ 70 %', 'not measured'));

  const images = results.images;
  const imageTarget = ['image_throughput', 'Image from the gateway cache vs nginx serving the file', '≥ 80 %'] as const;
  if (images?.ratios.gateway_vs_nginx !== undefined)
    targets.push(check(...imageTarget, pct(images.ratios.gateway_vs_nginx), images.ratios.gateway_vs_nginx >= 0.8));
  else targets.push(skip(...imageTarget, images ? 'nginx absent' : 'not measured'));

  for (const [key, label] of [
    ['idle_before_seeding', 'before seeding'],
    ['idle_after_load', 'after the load'],
  ] as const) {
    const reading = rss[key];
    if (!reading) continue;
    const [heaviest, mb] = required(Object.entries(reading).sort(([, a], [, b]) => b - a)[0], 'RSS reading');
    targets.push(
      check(
        `rss_${key}`,
        `Idle RSS per process, ${label} (largest)`,
        '≤ 150 MB',
        `${mb.toFixed(0)} MB (${heaviest})`,
        mb <= 150,
      ),
    );
  }
  return targets;
}
