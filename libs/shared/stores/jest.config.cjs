module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-stores',
  rootDir: __dirname,
};
