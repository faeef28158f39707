module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'all-in-one',
  rootDir: __dirname,
};
