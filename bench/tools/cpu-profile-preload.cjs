// Preloaded with NODE_OPTIONS=--require (Node 20 refuses --cpu-prof in NODE_OPTIONS, and the stack
// launcher starts services without extra node flags): profiles the whole process with the inspector and
// writes <CPU_PROFILE_DIR>/<name>-<pid>.cpuprofile when the process exits.
'use strict';
const { Session } = require('node:inspector');
const { writeFileSync, mkdirSync } = require('node:fs');
const path = require('node:path');

const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 200 });
  session.post('Profiler.start');
  process.on('exit', () => {
    // In-process inspector sessions answer synchronously, so this completes inside the exit handler.
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      mkdirSync(dir, { recursive: true });
      const name = `${path.basename(path.dirname(process.argv[1] || 'node'))}-${process.env.CATEGORY || ''}-${process.pid}`;
      writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
