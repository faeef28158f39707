module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'catalog-service',
  rootDir: __dirname,
};
