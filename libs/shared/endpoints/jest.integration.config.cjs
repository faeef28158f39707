module.exports = {
  ...require('../../../jest.integration.preset.cjs'),
  displayName: 'shared-endpoints',
  rootDir: __dirname,
};
