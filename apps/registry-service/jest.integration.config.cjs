module.exports = {
  ...require('../../jest.integration.preset.cjs'),
  displayName: 'registry-service',
  rootDir: __dirname,
};
