module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-probes',
  rootDir: __dirname,
};
