module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-validation',
  rootDir: __dirname,
};
