module.exports = {
  ...require('../../jest.integration.preset.cjs'),
  displayName: 'deploy-checks',
  rootDir: __dirname,
};
