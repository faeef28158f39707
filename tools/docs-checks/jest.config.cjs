// Checks of the repository's Markdown: plain files only, so no stores are started for them.
const preset = require('../../jest.preset.cjs');

module.exports = {
  ...preset,
  displayName: 'docs-checks',
  rootDir: __dirname,
  globalSetup: undefined,
  globalTeardown: undefined,
};
