// Before each test file of the `test:single-process` target: the stacks it starts (and the `npm start` the
// launcher suite runs) host every service in one process.
process.env.MT_SINGLE_PROCESS = '1';
