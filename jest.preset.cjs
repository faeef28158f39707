// Shared Jest settings: @swc/jest for speed (type checking lives in each project's `typecheck` target),
// tsconfig path aliases mapped to source, and one global setup that provides MongoDB and Redis URLs.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    path.join(__dirname, target),
  ]),
);

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  globalSetup: path.join(__dirname, 'libs/testing/src/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'libs/testing/src/global-teardown.ts'),
  // The default reporter, plus a per-project summary file when MT_TEST_RESULTS_DIR is set (.ci/run).
  reporters: ['default', path.join(__dirname, 'tools/jest/summary-reporter.cjs')],
  testTimeout: 30000,
  clearMocks: true,
};
