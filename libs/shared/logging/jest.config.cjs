module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-logging',
  rootDir: __dirname,
};
