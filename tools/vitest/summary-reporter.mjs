// The Vitest counterpart of tools/jest/summary-reporter.cjs: one JSON summary per run in
// $MT_TEST_RESULTS_DIR (the same fields), so .ci/run counts Vitest projects too. Does nothing when unset.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
    this.dir = process.env.MT_TEST_RESULTS_DIR;
  }

  onTestRunEnd(testModules, unhandledErrors) {
    if (!this.dir) return;
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
    writeFileSync(path.join(this.dir, `${this.project}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  }
}
