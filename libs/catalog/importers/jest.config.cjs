module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'importers',
  rootDir: __dirname,
  // Pure code: no MongoDB or Redis to provide.
  globalSetup: undefined,
  globalTeardown: undefined,
};
