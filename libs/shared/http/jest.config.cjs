module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-http',
  rootDir: __dirname,
};
