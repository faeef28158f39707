// Jest settings of a project's integration specs (`*.int.spec.ts`, the `test:integration` target): real
// MongoDB and Redis (jest.stores.preset.cjs), never cached.
const { reportersFor } = require('./jest.preset.cjs');

module.exports = {
  ...require('./jest.stores.preset.cjs'),
  testMatch: ['<rootDir>/**/*.int.spec.ts'],
  reporters: reportersFor('test:integration', 'integration'),
};
