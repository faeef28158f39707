import { run } from './cli';
import { processIo } from './io';

// `mt … | head`: a reader that stops early is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

void run(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
