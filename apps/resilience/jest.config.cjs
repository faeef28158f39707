// Resilience suites start whole stacks as processes from dist/ (the `test` target builds them first):
// one file at a time so two stacks never compete for the 2 cores; every loop inside is bounded, the
// timeouts below only catch a hang.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'resilience',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.resilience.spec.ts'],
  maxWorkers: 1,
  testTimeout: 180000,
};
