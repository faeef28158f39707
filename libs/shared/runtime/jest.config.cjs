module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-runtime',
  rootDir: __dirname,
};
