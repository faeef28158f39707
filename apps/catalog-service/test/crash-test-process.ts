/**
 * A real catalog process for crash tests: serves movies on a random port against the database named by
 * CATALOG_TEST_DB (with IMPORT_REDIS_PREFIX: also an import worker on that queue) and prints `PORT <n>` once
 * listening. The test kills it with SIGKILL.
 */
import { startCatalogHarness } from './catalog-harness';

async function main(): Promise<void> {
  const dbName = process.env['CATALOG_TEST_DB'];
  if (!dbName) throw new Error('CATALOG_TEST_DB is required');
  const redisPrefix = process.env['IMPORT_REDIS_PREFIX'];
  const imports = redisPrefix ? { redisPrefix, lockMs: Number(process.env['IMPORT_LOCK_MS'] ?? 2000) } : undefined;
  const h = await startCatalogHarness({ category: 'movies', dbName, imports });
  const server = h.app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`PORT ${typeof address === 'object' && address ? address.port : 0}\n`);
  });
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
