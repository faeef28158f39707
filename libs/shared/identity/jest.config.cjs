module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-identity',
  rootDir: __dirname,
};
