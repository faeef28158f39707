// End-to-end suites start real processes from dist/ (the `test` target builds them first): one file at a
// time, so two stacks never compete for the CPU, with timeouts that allow for a start-up on a busy machine.
module.exports = {
  ...require('../../jest.stores.preset.cjs'),
  displayName: 'e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e.spec.ts'],
  maxWorkers: 1,
  testTimeout: 120000,
};
