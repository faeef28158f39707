module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-config',
  rootDir: __dirname,
};
