module.exports = {
  ...require('../../jest.integration.preset.cjs'),
  displayName: 'catalog-service',
  rootDir: __dirname,
};
