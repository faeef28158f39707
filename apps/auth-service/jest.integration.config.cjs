module.exports = {
  ...require('../../jest.integration.preset.cjs'),
  displayName: 'auth-service',
  rootDir: __dirname,
};
