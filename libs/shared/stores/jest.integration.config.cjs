module.exports = {
  ...require('../../../jest.integration.preset.cjs'),
  displayName: 'shared-stores',
  rootDir: __dirname,
};
