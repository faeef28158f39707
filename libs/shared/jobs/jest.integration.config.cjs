module.exports = {
  ...require('../../../jest.integration.preset.cjs'),
  displayName: 'shared-jobs',
  rootDir: __dirname,
};
