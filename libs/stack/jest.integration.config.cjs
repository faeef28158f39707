module.exports = {
  ...require('../../jest.integration.preset.cjs'),
  displayName: 'stack',
  rootDir: __dirname,
};
