// Prints the per-project results of one `npm test` run and the final line CI judges: "N passed, M failed".
// Usage: node tools/ci/test-summary.mjs <results-dir> <project>...   (the projects that have a test target)
// M counts failed tests, plus each test file that could not run (e.g. it does not compile), plus each
// project that produced no results at all (e.g. its build dependency failed). Exit code 1 when M > 0.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [dir, ...projects] = process.argv.slice(2);
if (!dir) {
  console.error('usage: test-summary.mjs <results-dir> <project>...');
  process.exit(2);
}

const MAX_FAILURES_SHOWN = 10;
let passed = 0;
let failed = 0;
const rows = [];
const failures = [];
for (const project of projects) {
  const file = path.join(dir, `${project}.json`);
  if (!existsSync(file)) {
    failed += 1;
    rows.push([project, 'no results: the project did not run (see its output above)']);
    continue;
  }
  const result = JSON.parse(readFileSync(file, 'utf8'));
  passed += result.passed;
  failed += result.failed + result.brokenSuites;
  const broken = result.brokenSuites ? `, ${result.brokenSuites} test file(s) could not run` : '';
  rows.push([project, `${result.passed} passed, ${result.failed} failed${broken}${result.pending ? `, ${result.pending} skipped` : ''}`]);
  for (const suite of result.failedSuites) rows.push(['', `  failing: ${suite}`]);
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

const width = Math.max(0, ...rows.map(([name]) => name.length));
console.log('\nTest results by project:');
for (const [name, text] of rows) console.log(`  ${name.padEnd(width)}  ${text}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
