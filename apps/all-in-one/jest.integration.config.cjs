module.exports = {
  ...require('../../jest.integration.preset.cjs'),
  displayName: 'all-in-one',
  rootDir: __dirname,
};
