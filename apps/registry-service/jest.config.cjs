module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'registry-service',
  rootDir: __dirname,
};
