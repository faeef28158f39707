#!/usr/bin/env node
// Compares two bench result files figure by figure, each change judged against the run-to-run noise both
// files recorded (a change within the larger spread of the two is noise).
// Usage: node bench/tools/compare.mjs <older.json> <newer.json> [--markdown]
import { readFileSync } from 'node:fs';
import { figures, formatPercent, formatReading, formatSpread } from './figures.mjs';

const args = process.argv.slice(2);
const markdown = args.includes('--markdown');
const paths = args.filter((arg) => !arg.startsWith('--'));
if (paths.length !== 2) {
  console.error('usage: compare.mjs <older.json> <newer.json> [--markdown]');
  process.exit(2);
}
const [older, newer] = paths.map((file) => JSON.parse(readFileSync(file, 'utf8')));

/** Beyond this the two machines differ in what memory or the kernel cost: absolute figures do not compare. */
const MACHINE_TOLERANCE = 0.3;
const PROBE = [
  ['page_fault_us', 'page fault', 'µs'],
  ['syscall_us', 'syscall (fstat)', 'µs'],
  ['sha256_1kb_us', 'SHA-256 of 1 kB', 'µs'],
];

function describeRun(name, path, { meta }) {
  const machine = meta.machine
    ? PROBE.map(([key, label, unit]) => `${label} ${meta.machine[key]} ${unit}`).join(', ')
    : 'not recorded (run made before the probe existed)';
  return [
    `${name}: ${path}`,
    `  started ${meta.started_at} (${meta.duration_s ?? '?'} s), scenarios ${meta.settings?.scenarios?.join(',') ?? '?'}, ${meta.settings?.repeats ?? '?'} repetitions`,
    `  load average ${meta.load_average?.start ?? '?'} at the start, ${meta.load_average?.end ?? '?'} at the end; node ${meta.node}, ${meta.cpus} × ${meta.cpu_model}`,
    `  machine probe: ${machine}`,
  ];
}

function machineWarnings(a, b) {
  const across =
    'absolute figures do not compare across machines; only ratios taken within each run do, and those only roughly';
  if (!a || !b) {
    const missing = !a && !b ? 'neither run records' : `the ${a ? 'newer' : 'older'} run does not record`;
    return [`${missing} the machine probe: nothing shows that both ran on the same machine (${across})`];
  }
  const differing = PROBE.filter(([key]) => Math.abs(b[key] / a[key] - 1) > MACHINE_TOLERANCE).map(
    ([key, label, unit]) => `${label} ${a[key]} → ${b[key]} ${unit}`,
  );
  return differing.length
    ? [
        `the machine probe differs by more than ${MACHINE_TOLERANCE * 100} % (${differing.join(', ')}): the runs were made on different machines, or under very different load (${across})`,
      ]
    : [];
}

/** Change of the newer median against the older, judged against the larger of the two runs' spreads. */
function judge(figure, [before, after]) {
  const change = (after.value - before.value) / Math.abs(before.value);
  const spreads = [before.spread, after.spread].filter((spread) => spread !== undefined);
  const noise = spreads.length ? Math.max(...spreads) : undefined;
  const improved = figure.better === 'higher' ? change > 0 : change < 0;
  let verdict;
  if (change === 0) verdict = 'unchanged';
  else if (noise === undefined) verdict = improved ? 'better (noise unknown)' : 'worse (noise unknown)';
  else if (Math.abs(change) <= noise) verdict = 'within noise';
  else verdict = improved ? 'better' : 'worse beyond noise';
  return { change, noise, verdict };
}

const signedPercent = (fraction) => `${fraction >= 0 ? '+' : ''}${formatPercent(fraction)}`;
const header = ['figure', 'unit', 'older', 'newer', 'change', 'noise', 'verdict'];
const counts = {};
const rows = figures(older, newer).map((figure) => {
  const [before, after] = figure.readings;
  const cells = [figure.label, `${figure.better === 'higher' ? '↑' : '↓'} ${figure.unit}`];
  if (!before || !after) {
    const verdict = before ? 'not in newer run' : 'not in older run';
    counts[verdict] = (counts[verdict] ?? 0) + 1;
    return [
      ...cells,
      before ? formatReading(before) : verdict,
      after ? formatReading(after) : verdict,
      '',
      '',
      '',
    ];
  }
  const { change, noise, verdict } = judge(figure, figure.readings);
  counts[verdict] = (counts[verdict] ?? 0) + 1;
  // The noise cell names the run whose spread it is, with what a ratio's runs are.
  const noiseCell = noise === undefined ? 'unknown' : formatSpread(noise === before.spread ? before : after);
  return [...cells, formatReading(before), formatReading(after), signedPercent(change), noiseCell, verdict];
});

const out = [];
const meta = [...describeRun('older', paths[0], older), ...describeRun('newer', paths[1], newer)];
const warnings = machineWarnings(older.meta.machine, newer.meta.machine);
const VERDICTS = [
  'worse beyond noise',
  'worse (noise unknown)',
  'within noise',
  'unchanged',
  'better',
  'better (noise unknown)',
  'not in older run',
  'not in newer run',
];
const summary = `${rows.length} figures: ${VERDICTS.filter((verdict) => counts[verdict])
  .map((verdict) => `${counts[verdict]} ${verdict}`)
  .join(', ')}`;
const legend =
  "↑/↓: higher/lower is better. noise = the larger of the two runs' spreads, (max − min) ÷ median of the repetitions; ratios and added latencies: of the per-repetition pairs.";
if (markdown) {
  out.push(
    '## Bench comparison',
    '',
    ...meta.map((line) => (line.startsWith('  ') ? `  - ${line.trim()}` : `- ${line}`)),
    '',
  );
  for (const warning of warnings) out.push(`> **Warning:** ${warning}.`, '');
  out.push(
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i < 2 ? ':--' : i < 6 ? '--:' : ':--')).join('|')}|`,
  );
  for (const row of rows) out.push(`| ${row.join(' | ')} |`);
  out.push('', summary, '', legend);
} else {
  out.push(...meta, '');
  for (const warning of warnings) out.push(`WARNING: ${warning}.`, '');
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells
      .map((cell, i) => (i < 2 || i === 6 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  out.push(line(header), widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) out.push(line(row));
  out.push('', summary, legend);
}
console.log(out.join('\n'));
