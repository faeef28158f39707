// Writes one small JSON summary per Jest run (one per Nx project and target) to
// tmp/test-results/<project>.<target>.json, so .ci/run can print the overall
// "N passed, M failed" line. The cached `test` targets declare the file as their output: a cache hit restores it.
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const MESSAGE_LINES = 16;

/** A failed test, its message without colours and cut to its first lines. */
function failure(file, test, message) {
  // eslint-disable-next-line no-control-regex -- Jest's messages carry ANSI colour codes
  const lines = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n')
    .filter((line) => line.trim() && !/^\s*at .*node_modules/.test(line));
  return { file: path.relative(process.cwd(), file), test, message: lines.slice(0, MESSAGE_LINES).join('\n') };
}

class SummaryReporter {
  constructor(globalConfig, options = {}) {
    this.globalConfig = globalConfig;
    this.target = options.target ?? 'test';
    this.kind = options.kind ?? 'unit';
    this.dir = path.join(__dirname, '../../tmp/test-results');
  }

  onRunComplete(contexts, results) {
    const [context] = [...contexts];
    const displayName = context?.config?.displayName?.name ?? path.basename(context?.config?.rootDir ?? 'jest');
    const summary = {
      project: displayName,
      target: this.target,
      kind: this.kind,
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      pending: results.numPendingTests + results.numTodoTests,
      suites: results.numTotalTestSuites,
      // Suites that could not run at all (syntax error, failing beforeAll...) count no failed test themselves.
      brokenSuites: results.numRuntimeErrorTestSuites,
      failedSuites: results.testResults.filter((suite) => suite.numFailingTests > 0 || suite.testExecError).map((suite) => path.relative(process.cwd(), suite.testFilePath)),
      // What failed and why, briefly: CI keeps only the tail of a long log, where the summary is printed.
      failures: results.testResults.flatMap((suite) => [
        ...(suite.testExecError ? [failure(suite.testFilePath, 'could not run', suite.testExecError.message)] : []),
        ...suite.testResults
          .filter((test) => test.status === 'failed')
          .map((test) => failure(suite.testFilePath, test.fullName, test.failureMessages.join('\n'))),
      ]),
      // (results.success is not final yet when reporters run)
      success: results.numFailedTests === 0 && results.numFailedTestSuites === 0 && results.numRuntimeErrorTestSuites === 0,
    };
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(path.join(this.dir, `${displayName}.${this.target}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  }
}

module.exports = SummaryReporter;
