module.exports = {
  ...require('../../jest.integration.preset.cjs'),
  displayName: 'providers',
  rootDir: __dirname,
};
