// One process hosting the whole stack: gateway, auth, registry and one catalog per category (see README.md).
import { runServiceHost } from '@mt/runtime';
import { planFrom } from './plan';
import { hosted } from './services';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

try {
  const level = process.env['LOG_LEVEL'];
  runServiceHost('all-in-one', planFrom(process.env).map(hosted), level && LOG_LEVELS.includes(level) ? level : 'info');
} catch (error) {
  process.stderr.write(`all-in-one: ${(error as Error).message}\n`);
  process.exit(1);
}
