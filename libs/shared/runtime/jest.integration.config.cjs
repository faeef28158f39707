module.exports = {
  ...require('../../../jest.integration.preset.cjs'),
  displayName: 'shared-runtime',
  rootDir: __dirname,
};
