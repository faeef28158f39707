// The same suites against the stack in single-process mode (`npm start -- --single-process`: every service in
// one all-in-one process), through MT_SINGLE_PROCESS=1 as the launcher reads it. Left out, as they do not start
// the stack: service-lifecycle (each app as a process of its own, run alike by the `test` target) and the
// conformance checker's own specs. Tests that kill one service's process are skipped inside the files, with why.
const { reportersFor } = require('../../jest.preset.cjs');

module.exports = {
  ...require('./jest.config.cjs'),
  setupFiles: ['<rootDir>/src/support/single-process-mode.cjs'],
  testPathIgnorePatterns: ['/node_modules/', '/src/service-lifecycle\\.e2e\\.spec\\.ts$', '/src/support/openapi-conformance\\.e2e\\.spec\\.ts$'],
  reporters: reportersFor('test:single-process', 'whole-stack in one process'),
};
