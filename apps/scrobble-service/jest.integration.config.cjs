module.exports = {
  ...require('../../jest.integration.preset.cjs'),
  displayName: 'scrobble-service',
  rootDir: __dirname,
};
