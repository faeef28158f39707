module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'registry-client',
  rootDir: __dirname,
};
