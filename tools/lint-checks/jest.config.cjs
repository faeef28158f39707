// Tests of the lint rules themselves (eslint.config.mjs): ESLint runs as a child process on snippets, no stores.
const preset = require('../../jest.preset.cjs');

module.exports = {
  ...preset,
  displayName: 'lint-checks',
  rootDir: __dirname,
  globalSetup: undefined,
  globalTeardown: undefined,
  testTimeout: 120000,
};
