// The bench's named figures, read from a results file (bench/results/*.json, any version of its shape).
// One list shared by the report's "Run-to-run noise" section (bench/src/report/render.ts) and by
// bench/tools/compare.mjs, so that both name, read and judge the same figures the same way.

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const finite = (value) => typeof value === 'number' && Number.isFinite(value);

/** Run-to-run noise of a figure: (max − min) ÷ median of its repetitions; undefined for fewer than two. */
function spread(runs) {
  if (!runs || runs.length < 2) return undefined;
  const middle = median(runs);
  return middle === 0 ? undefined : (Math.max(...runs) - Math.min(...runs)) / Math.abs(middle);
}

/** A figure measured once per repetition: `value` is the median the report shows. */
function measured(value, runs) {
  if (!finite(value)) return undefined;
  const kept = runs?.filter(finite);
  return { value, runs: kept?.length ? kept : undefined, spread: spread(kept) };
}

/**
 * A ratio (or difference) of two medians. Compared variants are measured side by side, repetition by
 * repetition (they take turns), so its repetitions are the ratios of each repetition's pair: a burst of load
 * that hits both alike cancels out, as it does in the median figure.
 */
function paired(value, a, b, combine, basis) {
  const pairs =
    a?.runs && b?.runs && a.runs.length === b.runs.length
      ? a.runs.map((x, i) => combine(x, b.runs[i]))
      : undefined;
  const reading = measured(value, pairs);
  return reading && { ...reading, basis };
}
const quotient = (a, b) => a / b;
const minus = (a, b) => a - b;

const throughput = (stats) =>
  measured(
    stats?.rps,
    stats?.runs?.map((run) => run.rps),
  );
const latency = (stats, p) =>
  measured(
    stats?.[p],
    stats?.runs?.map((run) => run[p]),
  );
/** The gateway's CPU µs per request of each hot-path run: its CPU over the run ÷ the run's 2xx answers. */
const gatewayCpu = (value, stats) =>
  measured(
    value,
    stats?.runs?.map((run) => (run.cpu_ms?.gateway * 1000) / run.ok),
  );
const sizes = (bySize) => bySize?.map((at) => at.entries) ?? [];
const atSize = (bySize, size) => bySize?.find((at) => at.entries === size);

const PROXY_PATHS = ['direct', 'gateway', 'nginx'];
const HOT_PATH_CREDENTIALS = ['public', 'jwt', 'pat'];
const LIST_ROUTES = ['list_page', 'list_status_page', 'changes_page', 'stats'];
const CATALOG_SCALE_REQUESTS = [
  'offset_first',
  'offset_deep',
  'cursor_first',
  'cursor_deep',
  'external_id',
  'title_search',
];
const LIVEZ = ['auth-service', 'gateway'];

/**
 * Each group is one kind of figure, one per key (a path, a size, a process...); `keys` is a list or is read
 * from a file (the union over the files compared is used). `better` says which way is an improvement.
 */
const GROUPS = [
  {
    id: 'proxy.rps',
    label: (path) => `proxy: route 1 req/s, ${path}`,
    unit: 'req/s',
    better: 'higher',
    keys: PROXY_PATHS,
    read: (r, path) => throughput(r.proxy?.throughput?.[path]),
  },
  ...[
    ['gateway_vs_nginx', 'gateway', 'nginx'],
    ['gateway_vs_direct', 'gateway', 'direct'],
  ].map(([name, a, b]) => ({
    id: `proxy.ratio.${name}`,
    label: () => `proxy: route 1 req/s, ${a} ÷ ${b}`,
    unit: '×',
    better: 'higher',
    read: (r) =>
      paired(
        r.proxy?.ratios?.[name],
        throughput(r.proxy?.throughput?.[a]),
        throughput(r.proxy?.throughput?.[b]),
        quotient,
        `per-run ${a} ÷ ${b}`,
      ),
  })),
  {
    id: 'proxy.unloaded_p50',
    label: (path) => `proxy: unloaded p50, ${path}`,
    unit: 'ms',
    better: 'lower',
    keys: PROXY_PATHS,
    read: (r, path) => latency(r.proxy?.unloaded_latency?.[path], 'p50'),
  },
  {
    id: 'proxy.added_p50',
    label: (path) => `proxy: added p50, ${path}`,
    unit: 'ms',
    better: 'lower',
    keys: ['gateway', 'nginx'],
    read: (r, path) =>
      paired(
        r.proxy?.added_ms?.[path]?.p50,
        latency(r.proxy?.unloaded_latency?.[path], 'p50'),
        latency(r.proxy?.unloaded_latency?.direct, 'p50'),
        minus,
        `per-run ${path} − direct`,
      ),
  },
  {
    id: 'hot_path.gateway_cpu_us',
    label: (credential) => `hot path: gateway CPU per request, ${credential}`,
    unit: 'µs',
    better: 'lower',
    keys: HOT_PATH_CREDENTIALS,
    read: (r, credential) =>
      gatewayCpu(
        r.hot_path?.gateway_cpu_us?.[credential]?.raw,
        r.hot_path?.throughput?.[`gateway_${credential}`],
      ),
  },
  {
    id: 'hot_path.rps',
    label: (path) => `hot path: req/s, ${path}`,
    unit: 'req/s',
    better: 'higher',
    keys: ['direct', ...HOT_PATH_CREDENTIALS.map((credential) => `gateway_${credential}`), 'nginx'],
    read: (r, path) => throughput(r.hot_path?.throughput?.[path]),
  },
  {
    id: 'auth.rps',
    label: (credential) => `auth: req/s, ${credential}`,
    unit: 'req/s',
    better: 'higher',
    keys: ['jwt', 'pat', 'public'],
    read: (r, credential) => throughput(r.auth?.throughput?.[credential]),
  },
  {
    id: 'auth.ratio.pat_vs_jwt',
    label: () => 'auth: req/s, PAT ÷ JWT',
    unit: '×',
    better: 'higher',
    read: (r) =>
      paired(
        r.auth?.ratios?.pat_vs_jwt,
        throughput(r.auth?.throughput?.pat),
        throughput(r.auth?.throughput?.jwt),
        quotient,
        'per-run pat ÷ jwt',
      ),
  },
  ...['p50', 'p95'].map((p) => ({
    id: `search.prefix_${p}`,
    label: (size) => `search: prefix ${p} at ${size}`,
    unit: 'ms',
    better: 'lower',
    keys: (r) => sizes(r.search?.by_size),
    read: (r, size) => latency(atSize(r.search?.by_size, size)?.prefix, p),
  })),
  {
    id: 'login.logins_per_s',
    label: () => 'login storm: logins/s',
    unit: 'logins/s',
    better: 'higher',
    read: (r) =>
      measured(
        r.login?.logins_per_s,
        r.login?.runs?.map((run) => run.logins_per_s),
      ),
  },
  ...['p50', 'p99'].map((p) => ({
    id: `login.login_${p}`,
    label: () => `login storm: login ${p}`,
    unit: 'ms',
    better: 'lower',
    // Each run's percentiles are in the file since 2026-11-28; older files have the medians only.
    read: (r) =>
      measured(
        r.login?.[`login_${p}`],
        r.login?.runs?.map((run) => run[`login_${p}`]),
      ),
  })),
  {
    id: 'login.livez_p99',
    label: (service) => `login storm: /livez p99, ${service}`,
    unit: 'ms',
    better: 'lower',
    keys: LIVEZ,
    read: (r, service) =>
      measured(
        r.login?.livez_during?.[service]?.p99,
        r.login?.runs?.map((run) => run.livez?.[service]?.p99),
      ),
  },
  {
    id: 'bulk_status.median',
    label: () => 'bulk-status of 500 ids',
    unit: 'ms',
    better: 'lower',
    read: (r) => measured(r.bulk_status?.median_ms, r.bulk_status?.runs_ms),
  },
  ...LIST_ROUTES.flatMap((route) =>
    ['p50', 'p95'].map((p) => ({
      id: `lists.${route}.${p}`,
      label: (size) => `lists: ${route} ${p} at ${size}`,
      unit: 'ms',
      better: 'lower',
      keys: (r) => sizes(r.lists?.by_size),
      read: (r, size) => latency(atSize(r.lists?.by_size, size)?.latency?.[route], p),
    })),
  ),
  {
    id: 'lists.rps.list_page',
    label: () => 'lists: list page req/s',
    unit: 'req/s',
    better: 'higher',
    read: (r) => throughput(r.lists?.throughput?.list),
  },
  {
    id: 'lists.ratio.list_vs_catalog',
    label: () => 'lists: req/s, list page ÷ catalog page',
    unit: '×',
    better: 'higher',
    read: (r) =>
      paired(
        r.lists?.throughput?.ratio,
        throughput(r.lists?.throughput?.list),
        throughput(r.lists?.throughput?.catalog),
        quotient,
        'per-run list ÷ catalog',
      ),
  },
  ...['p50', 'p95'].map((p) => ({
    id: `catalog_scale.${p}`,
    label: (request) => `catalog-scale: ${request} ${p}`,
    unit: 'ms',
    better: 'lower',
    keys: CATALOG_SCALE_REQUESTS,
    read: (r, request) => latency(r.catalog_scale?.pages?.[request] ?? r.catalog_scale?.lookup?.[request], p),
  })),
  {
    id: 'imports.rows_per_s',
    label: () => 'imports: Letterboxd import rows/s',
    unit: 'rows/s',
    better: 'higher',
    read: (r) => measured(r.imports?.import?.rows_per_s),
  },
  {
    id: 'imports.export',
    label: (format) => `imports: export entries/s, ${format}`,
    unit: 'entries/s',
    better: 'higher',
    keys: ['json', 'csv'],
    read: (r, format) => {
      const exported = r.imports?.export?.find((run) => run.format === format);
      return measured(exported?.entries_per_s, exported?.runs_entries_per_s);
    },
  },
  {
    id: 'cold_start.fresh',
    label: () => 'cold start, fresh databases',
    unit: 'ms',
    better: 'lower',
    read: (r) =>
      measured(
        r.cold_start?.fresh?.median_ms,
        r.cold_start?.fresh?.runs?.map((run) => run.all_ready_ms),
      ),
  },
  {
    id: 'cold_start.with_data',
    label: () => 'cold start, over the benchmark data',
    unit: 'ms',
    better: 'lower',
    read: (r) => measured(r.cold_start?.with_data?.all_ready_ms),
  },
  ...[
    ['idle_before_seeding', 'before seeding'],
    ['idle_after_load', 'after the load'],
  ].map(([reading, when]) => ({
    id: `rss.${reading}`,
    label: (process) => `idle RSS ${when}, ${process}`,
    unit: 'MB',
    better: 'lower',
    keys: (r) => Object.keys(r.rss_mb?.[reading] ?? {}),
    read: (r, process) => measured(r.rss_mb?.[reading]?.[process]),
  })),
];

/** The keys of a group over several files: sizes in ascending order, names in the order first seen. */
function unionKeys(group, files) {
  if (!group.keys) return [undefined];
  const keys = [
    ...new Set(files.flatMap((file) => (typeof group.keys === 'function' ? group.keys(file) : group.keys))),
  ];
  return keys.every((key) => typeof key === 'number') ? keys.sort((a, b) => a - b) : keys;
}

/**
 * The figures of one or more results files, in report order: one per figure any of them holds, with each
 * file's reading ({ value, runs?, spread?, basis? }) or undefined where a file lacks it.
 */
export function figures(...files) {
  return GROUPS.flatMap((group) =>
    unionKeys(group, files).map((key) => ({
      id: key === undefined ? group.id : `${group.id}.${key}`,
      label: group.label(key),
      unit: group.unit,
      better: group.better,
      readings: files.map((file) => group.read(file, key)),
    })),
  ).filter((figure) => figure.readings.some(Boolean));
}

/** Digits enough to compare, no more: 3–4 significant figures. */
export function formatNumber(value) {
  const size = Math.abs(value);
  return value.toFixed(size >= 100 ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : 3);
}

export const formatPercent = (fraction) => `${(fraction * 100).toFixed(1)} %`;

/** "median (run, run, run)": the figure, then each repetition when there were several. */
export function formatReading(reading) {
  const runs =
    reading.runs && reading.runs.length > 1 ? ` (${reading.runs.map(formatNumber).join(', ')})` : '';
  return `${formatNumber(reading.value)}${runs}`;
}

/** A reading's noise as the report and the compare tool print it. */
export function formatSpread(reading) {
  if (reading.spread === undefined) return 'single measurement';
  return reading.basis
    ? `${formatPercent(reading.spread)} (${reading.basis})`
    : formatPercent(reading.spread);
}
