module.exports = {
  ...require('../../jest.integration.preset.cjs'),
  displayName: 'gateway',
  rootDir: __dirname,
};
