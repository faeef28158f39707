module.exports = {
  ...require('../../jest.integration.preset.cjs'),
  displayName: 'testing',
  rootDir: __dirname,
};
