module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-metrics',
  rootDir: __dirname,
};
