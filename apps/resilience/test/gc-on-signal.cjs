// Preloaded into the services of the load run (NODE_OPTIONS="--expose-gc --require <this file>"): SIGUSR2
// runs a full garbage collection, so the sampler can read the heap that is really alive. A measuring
// instrument only: the services' code is unchanged, and nothing else sends them SIGUSR2.
if (typeof global.gc === 'function') {
  process.on('SIGUSR2', () => global.gc());
}
