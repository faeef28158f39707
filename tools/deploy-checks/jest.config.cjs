module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'deploy-checks',
  rootDir: __dirname,
};
