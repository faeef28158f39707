// Two of every service (`npm run test:two-of-everything`): MT_TWO_OF_EVERYTHING=1 makes every test stack start a
// second registry, auth service, catalog per category and gateway, and the API client ask the two gateways in
// turn. The journeys run as they are; two-of-everything.e2e.spec.ts kills one instance of each kind in turn.
const { reportersFor } = require('../../jest.preset.cjs');

process.env['MT_TWO_OF_EVERYTHING'] = '1';

module.exports = {
  ...require('./jest.config.cjs'),
  testMatch: ['<rootDir>/src/two-of-everything.e2e.spec.ts', '<rootDir>/src/journeys.e2e.spec.ts'],
  reporters: reportersFor('test:two-of-everything', 'whole-stack, two of every service'),
};
