module.exports = {
  ...require('../../../jest.integration.preset.cjs'),
  displayName: 'shared-http',
  rootDir: __dirname,
};
