module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'auth-service',
  rootDir: __dirname,
};
