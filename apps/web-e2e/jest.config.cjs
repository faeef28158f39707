// Browser tests of the web app: headless Chromium (playwright-core, the system's /usr/bin/chromium) against a
// whole stack started from dist/ (the `test` target builds it first), in its own databases and Redis prefix.
module.exports = {
  ...require('../../jest.stores.preset.cjs'),
  displayName: 'web-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.browser.spec.ts'],
  maxWorkers: 1,
  testTimeout: 180000,
};
