/**
 * A real catalog process that runs import jobs, for crash tests: serves movies on a random port against the
 * database CATALOG_TEST_DB, with its import worker on the queue under IMPORT_REDIS_PREFIX, and prints
 * `PORT <n>` once listening. The test kills it with SIGKILL.
 */
import { startCatalogHarness } from './catalog-harness';

async function main(): Promise<void> {
  const dbName = process.env['CATALOG_TEST_DB'];
  const redisPrefix = process.env['IMPORT_REDIS_PREFIX'];
  if (!dbName || !redisPrefix) throw new Error('CATALOG_TEST_DB and IMPORT_REDIS_PREFIX are required');
  const h = await startCatalogHarness({ category: 'movies', dbName, imports: { redisPrefix, lockMs: Number(process.env['IMPORT_LOCK_MS'] ?? 2000) } });
  const server = h.app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`PORT ${typeof address === 'object' && address ? address.port : 0}\n`);
  });
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
