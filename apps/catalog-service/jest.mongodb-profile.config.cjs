// The list, catalog, cursor and change-feed integration specs again, with the MongoDB store profile forced
// (STORE_PROFILE=mongodb): the index-ordered queries real MongoDB runs, tested on whatever server the suite
// has (the CI's test server would otherwise get the sorting profile). Set here, before Jest starts its
// workers, so the harness and every catalog process a spec starts inherit it.
const { reportersFor } = require('../../jest.preset.cjs');

process.env.STORE_PROFILE = 'mongodb';

module.exports = {
  ...require('../../jest.integration.preset.cjs'),
  displayName: 'catalog-service',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/features/{catalog,list,list-changes}/**/*.int.spec.ts', '<rootDir>/src/data/**/*.int.spec.ts'],
  reporters: reportersFor('test:integration:mongodb-profile', 'integration, MongoDB profile'),
};
