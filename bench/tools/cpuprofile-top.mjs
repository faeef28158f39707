#!/usr/bin/env node
// Summarises V8 .cpuprofile files (node --cpu-prof): self time by function and by package/file.
// Usage: node bench/tools/cpuprofile-top.mjs <file.cpuprofile> [more...] [--top=25] [--skip=seconds] [--until=seconds] [--inclusive]
import { readFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const top = Number(args.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
// --skip=S: ignore the first S seconds (start-up: module loading, connecting).
const skipUs = Number(args.find((a) => a.startsWith('--skip='))?.slice(7) ?? 0) * 1e6;
// --until=S: ignore what comes after S seconds (e.g. the load runs only: --skip=100 --until=160).
const untilUs = Number(args.find((a) => a.startsWith('--until='))?.slice(8) ?? Infinity) * 1e6;
const files = args.filter((a) => !a.startsWith('--'));
if (!files.length) {
  console.error('usage: cpuprofile-top.mjs <file.cpuprofile>... [--top=N]');
  process.exit(2);
}

const where = (url) => {
  if (!url) return '(native)';
  const modules = url.split('node_modules/');
  if (modules.length > 1) {
    const parts = modules[modules.length - 1].split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return url;
  return path.basename(url);
};

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  const deltas = profile.timeDeltas;
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    elapsed += deltas[i] ?? 0;
    if (elapsed >= skipUs && elapsed < untilUs) selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0));
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byPlace = new Map();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id).callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${where(frame.url)}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const place = ['(idle)', '(program)', '(garbage collector)'].includes(frame.functionName)
      ? frame.functionName
      : where(frame.url);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  }
  const show = (map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([name, us]) =>
          `  ${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`,
      )
      .join('\n');
  // Inclusive (self + callees) time per function, each function counted once per stack (recursion).
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map();
  for (const [id, us] of selfUs) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at).callFrame;
      if (['(root)', '(idle)', '(program)'].includes(frame.functionName)) continue;
      const name = `${frame.functionName || '(anonymous)'} ${where(frame.url)}:${frame.lineNumber + 1}`;
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    }
  }
  const idle = byPlace.get('(idle)') ?? 0;
  console.log(
    `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(((total - idle) / total) * 100).toFixed(1)} % busy`,
  );
  console.log(' by package / file (self time):');
  console.log(show(byPlace));
  console.log(' by function (self time):');
  console.log(show(byFunction));
  if (args.includes('--inclusive')) {
    console.log(' by function (inclusive time):');
    console.log(show(inclusive));
  }
}
