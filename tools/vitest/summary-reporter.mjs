// The Vitest counterpart of tools/jest/summary-reporter.cjs: one JSON summary per run in tmp/test-results
// (the same fields and file name), so .ci/run counts Vitest projects too.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MESSAGE_LINES = 16;

/** A failed test, its message without colours and cut to its first lines (as the Jest reporter writes it). */
function failure(file, test, message) {
  // eslint-disable-next-line no-control-regex -- messages may carry ANSI colour codes
  const lines = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n')
    .filter((line) => line.trim() && !/^\s*at .*node_modules/.test(line));
  return { file: path.relative(process.cwd(), file), test, message: lines.slice(0, MESSAGE_LINES).join('\n') };
}

export default class SummaryReporter {
  constructor(options = {}) {
    this.project = options.project ?? 'vitest';
    this.dir = fileURLToPath(new URL('../../tmp/test-results', import.meta.url));
  }

  onTestRunEnd(testModules, unhandledErrors) {
    let passed = 0;
    let failed = 0;
    let pending = 0;
    const failedSuites = [];
    const failures = [];
    let brokenSuites = 0;
    for (const module of testModules) {
      let moduleFailed = false;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') {
          failed += 1;
          moduleFailed = true;
          const messages = (test.result().errors ?? []).map((error) => error.message ?? String(error));
          failures.push(failure(module.moduleId, test.fullName, messages.join('\n')));
        }
        else pending += 1;
      }
      // A file that could not run (syntax error, failing beforeAll) has errors of its own.
      if (module.errors().length > 0) {
        brokenSuites += 1;
        moduleFailed = true;
        failures.push(failure(module.moduleId, 'could not run', module.errors().map((error) => error.message).join('\n')));
      }
      if (moduleFailed) failedSuites.push(path.relative(process.cwd(), module.moduleId));
    }
    brokenSuites += unhandledErrors.length;
    const summary = {
      project: this.project,
      target: 'test',
      kind: 'unit',
      passed,
      failed,
      pending,
      suites: testModules.length,
      brokenSuites,
      failedSuites,
      failures,
      success: failed === 0 && brokenSuites === 0,
    };
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(path.join(this.dir, `${this.project}.test.json`), `${JSON.stringify(summary, null, 2)}\n`);
  }
}
