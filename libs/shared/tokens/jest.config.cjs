module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-tokens',
  rootDir: __dirname,
};
