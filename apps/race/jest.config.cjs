// Race suites start a whole stack as processes from dist/ (the `test` target builds it first) and race
// real HTTP requests against it: one file at a time, so two stacks never compete for the CPU. Each test
// sets its own timeout from RACE_TRIALS (src/support/trials.ts); this one only covers start-up and hooks.
module.exports = {
  ...require('../../jest.stores.preset.cjs'),
  displayName: 'race',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  maxWorkers: 1,
  testTimeout: 180000,
};
