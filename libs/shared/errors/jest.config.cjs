module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-errors',
  rootDir: __dirname,
};
