module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'scrobble-service',
  rootDir: __dirname,
};
