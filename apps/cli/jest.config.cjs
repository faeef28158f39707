// Unit specs (src/**/*.spec.ts) and the process tests (test/*.e2e.spec.ts: the built `mt` against a started
// stack; the `test` target builds both first). One file at a time, so two stacks never compete for the CPU.
module.exports = {
  ...require('../../jest.stores.preset.cjs'),
  displayName: 'cli',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e.spec.ts'],
  maxWorkers: 1,
  testTimeout: 120000,
};
