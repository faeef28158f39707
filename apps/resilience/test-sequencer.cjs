// Unit specs of the checkers first, then the suites in the order: hostile input, faults, load (the load
// run is the longest; a failure in the earlier ones shows first). Jest's default orders by size and duration.
const Sequencer = require('@jest/test-sequencer').default;

const ORDER = ['hostile-input', 'import-flood', 'faults', 'load'];
const rank = (file) => {
  if (!file.includes('.resilience.spec')) return -1;
  const index = ORDER.findIndex((name) => file.includes(`${name}.resilience.spec`));
  return index < 0 ? ORDER.length : index;
};

class ResilienceSequencer extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  }
}

module.exports = ResilienceSequencer;
