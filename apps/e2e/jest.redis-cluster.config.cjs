// The Redis Cluster run (`npm run test:cluster`): the Jest global setup starts a local 3-master, 3-replica
// cluster (libs/stack/src/redis-cluster.ts) and every process of the stack speaks to it. The journeys run as
// they are, and redis-cluster.e2e.spec.ts fails every master over while writes go on.
const { reportersFor } = require('../../jest.preset.cjs');

process.env['MT_TEST_REDIS_CLUSTER'] = '1';

module.exports = {
  ...require('./jest.config.cjs'),
  testMatch: ['<rootDir>/src/redis-cluster.e2e.spec.ts', '<rootDir>/src/journeys.e2e.spec.ts'],
  reporters: reportersFor('test:redis-cluster', 'whole-stack on a Redis Cluster'),
};
