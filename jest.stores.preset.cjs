// Jest settings for runs that need MongoDB and Redis: the unit settings plus one global setup that provides
// the stores' URLs once per run (MONGO_URL / REDIS_URL when set; see libs/testing/src/global-setup.ts).
// Used as it is by the whole-stack suites (their `test` target is never cached: the stores are outside Nx's view).
const path = require('node:path');
const { reportersFor, ...unit } = require('./jest.preset.cjs');

module.exports = {
  ...unit,
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: path.join(__dirname, 'libs/testing/src/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'libs/testing/src/global-teardown.ts'),
  reporters: reportersFor('test', 'whole-stack'),
};
