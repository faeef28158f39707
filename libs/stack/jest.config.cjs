module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'stack',
  rootDir: __dirname,
};
