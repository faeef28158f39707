module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-endpoints',
  rootDir: __dirname,
};
