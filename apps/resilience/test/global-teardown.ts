// Prints the run's figures (written by each suite to tmp/resilience-results.json), then the preset's
// teardown. Relative imports: global teardown runs outside the module mapper.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import storesTeardown from '../../../libs/testing/src/global-teardown';
import { formatFigures } from '../src/support/figures-report';

export default async function globalTeardown(): Promise<void> {
  const file = path.join(__dirname, '..', '..', '..', 'tmp', 'resilience-results.json');
  try {
    const figures = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    process.stdout.write(`\n${formatFigures(figures)}\n(also in ${path.relative(process.cwd(), file)})\n`);
  } catch (error) {
    process.stdout.write(`\nresilience figures: none recorded (${(error as Error).message})\n`);
  }
  await storesTeardown();
}
