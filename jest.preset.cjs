// Shared Jest settings for unit specs (`*.spec.ts`, the `test` target): @swc/jest for speed (type checking
// lives in each project's `typecheck` target), tsconfig path aliases mapped to source, no stores. Unit runs
// are cached by Nx; specs that need MongoDB or Redis are `*.int.spec.ts` and run from each project's
// jest.integration.config.cjs (`test:integration`, jest.integration.preset.cjs). Whole-stack suites (e2e,
// race, resilience, cli, web-e2e) use jest.stores.preset.cjs.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    path.join(__dirname, target),
  ]),
);

/**
 * The default reporter, plus the per-run summary file .ci/run counts (tools/jest/summary-reporter.cjs):
 * `target` names the file, `kind` (unit, integration, whole-stack) is what the CI summary calls the run.
 */
const reportersFor = (target, kind) => ['default', [path.join(__dirname, 'tools/jest/summary-reporter.cjs'), { target, kind }]];

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
  testPathIgnorePatterns: ['/node_modules/', '\\.int\\.spec\\.ts$'],
  reporters: reportersFor('test', 'unit'),
  testTimeout: 30000,
  clearMocks: true,
};
// For the other presets; not enumerable, so a config spreading this preset does not carry it to Jest.
Object.defineProperty(module.exports, 'reportersFor', { value: reportersFor, enumerable: false });
