// Prints the results of one `npm test` run per project and the final line CI judges: "N passed, M failed".
// Usage: node tools/ci/test-summary.mjs <results-dir> <project>.<target>...   (every test run expected:
// `<project>.test` for unit specs and suites, `<project>.test:integration` for integration specs,
// `<project>.test:integration:mongodb-profile` for the catalog's integration specs with the MongoDB store profile,
// `<project>.test:single-process` for the whole-stack suites against the stack in one process,
// `<project>.test:redis-cluster` for the whole-stack suites on a local Redis Cluster,
// `<project>.test:two-of-everything` for the whole-stack suites with two of every service)
// M counts failed tests, plus each test file that could not run (e.g. it does not compile), plus each
// expected run that produced no results at all (e.g. its build dependency failed). Exit code 1 when M > 0.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const MAX_FAILURES_SHOWN = 10;

const [dir, ...runs] = process.argv.slice(2);
if (!dir) {
  console.error('usage: test-summary.mjs <results-dir> <project>.<target>...');
  process.exit(2);
}

let passed = 0;
let failed = 0;
const byProject = new Map();
const failures = [];
for (const run of runs) {
  const dot = run.indexOf('.');
  const [project, target] = [run.slice(0, dot), run.slice(dot + 1)];
  const rows = byProject.get(project) ?? { parts: [], failing: [] };
  byProject.set(project, rows);
  const file = path.join(dir, `${run}.json`);
  if (!existsSync(file)) {
    failed += 1;
    rows.parts.push(`${target}: no results, it did not run (see its output above)`);
    continue;
  }
  const result = JSON.parse(readFileSync(file, 'utf8'));
  const label = result.kind ?? target; // unit, integration or whole-stack
  passed += result.passed;
  failed += result.failed + result.brokenSuites;
  const broken = result.brokenSuites ? `, ${result.brokenSuites} test file(s) could not run` : '';
  const skipped = result.pending ? `, ${result.pending} skipped` : '';
  rows.parts.push(`${label} ${result.passed} passed, ${result.failed} failed${broken}${skipped}`);
  rows.failing.push(...result.failedSuites);
  failures.push(...(result.failures ?? []).map((f) => ({ project, ...f })));
}

// Why they failed, last: CI keeps the tail of the log, and a test's own output may be far above.
if (failures.length > 0) {
  console.log(`\nFailed tests (${failures.length}${failures.length > MAX_FAILURES_SHOWN ? `, the first ${MAX_FAILURES_SHOWN}` : ''}):`);
  for (const f of failures.slice(0, MAX_FAILURES_SHOWN)) {
    console.log(`  ${f.project} · ${f.file} · ${f.test}`);
    for (const line of f.message.split('\n')) console.log(`      ${line}`);
  }
}

const width = Math.max(0, ...[...byProject.keys()].map((name) => name.length));
console.log('\nTest results by project:');
for (const [project, { parts, failing }] of [...byProject].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`  ${project.padEnd(width)}  ${parts.join(' · ')}`);
  for (const suite of failing) console.log(`  ${''.padEnd(width)}    failing: ${suite}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
