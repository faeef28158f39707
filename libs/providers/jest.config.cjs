module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'providers',
  rootDir: __dirname,
};
