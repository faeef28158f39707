module.exports = {
  ...require('../../../jest.integration.preset.cjs'),
  displayName: 'shared-probes',
  rootDir: __dirname,
};
