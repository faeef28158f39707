// Resilience suites start whole stacks as processes from dist/ (the `test` target builds them first):
// one file at a time so two stacks never compete for the 2 cores, in a fixed order (test-sequencer.cjs).
// Every loop inside is bounded; the timeouts below only catch a hang. The global teardown prints the figures.
const path = require('node:path');

module.exports = {
  ...require('../../jest.stores.preset.cjs'),
  displayName: 'resilience',
  rootDir: __dirname,
  // The suites (*.resilience.spec.ts) and unit specs of their checkers.
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  testSequencer: path.join(__dirname, 'test-sequencer.cjs'),
  globalSetup: path.join(__dirname, 'test/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'test/global-teardown.ts'),
  maxWorkers: 1,
  testTimeout: 240000,
};
