// The preset's global setup (MongoDB and Redis URLs for the workers), plus a fresh results file so the
// figures printed at the end are this run's only. Relative imports: global setup runs outside the mapper.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import storesSetup from '../../../libs/testing/src/global-setup';

export default async function globalSetup(): Promise<void> {
  await storesSetup();
  const file = path.join(__dirname, '..', '..', '..', 'tmp', 'resilience-results.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ started_at: new Date().toISOString() }, null, 2)}\n`);
}
