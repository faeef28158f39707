#!/usr/bin/env node
// Every target's verdict across several full runs, oldest first: how often each failed and what it measured
// each time. One run's verdict on a target near its goal is a draw from the machine's noise; this shows which
// targets a change moved and which only ever pass or fail by chance.
// Usage: node bench/tools/verdicts.mjs <result.json>... [--markdown]
import { readFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const markdown = args.includes('--markdown');
const paths = args.filter((arg) => !arg.startsWith('--'));
if (paths.length < 2) {
  console.error('usage: verdicts.mjs <result.json> <result.json>... [--markdown]');
  process.exit(2);
}

const runs = paths
  .map((file) => ({ name: path.basename(file, '.json'), result: JSON.parse(readFileSync(file, 'utf8')) }))
  .filter(({ result }) => !result.meta?.quick && Array.isArray(result.targets))
  .sort((a, b) => a.result.meta.started_at.localeCompare(b.result.meta.started_at));

/** The figure a target's "measured" text starts with ("590 µs (net of idle 542 µs)" → "590"). */
const headline = (measured) => measured.split(/[\s;(]/)[0];

const ids = [...new Set(runs.flatMap(({ result }) => result.targets.map((target) => target.id)))];
const rows = ids.map((id) => {
  const seen = runs.map(({ result }) => result.targets.find((target) => target.id === id));
  const judged = seen.filter(Boolean);
  const failed = judged.filter((target) => target.verdict !== 'PASS').length;
  return {
    target: judged[0].description,
    goal: judged[0].target,
    failed: `${failed} of ${judged.length}`,
    measured: seen.map((target) => (target ? `${headline(target.measured)}${target.verdict === 'PASS' ? '' : '✗'}` : '—')).join(', '),
  };
});

const header = ['target', 'goal', 'failed', `measured, oldest first (✗ = FAIL)`];
const cells = rows.map((row) => [row.target, row.goal, row.failed, row.measured]);
console.log(`runs, oldest first: ${runs.map(({ name, result }) => `${name} (${result.meta.started_at})`).join(', ')}\n`);
if (markdown) {
  console.log(`| ${header.join(' | ')} |`);
  console.log('|:--|--:|--:|:--|');
  for (const row of cells) console.log(`| ${row.join(' | ')} |`);
} else {
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i].length)));
  for (const row of [header, ...cells]) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
}
