import type { Logger } from '@mt/logging';
import mongoose, { type Connection } from 'mongoose';
import { createCatalogModule, type CatalogModule, type EntryDocument } from '../service-code';
import { mapLimit } from '../load/http-client';
import { MOVIES } from '../data/movies';

/**
 * The movies catalog reached directly, through the catalog service's own module (repositories and
 * services), for seeding: the documents and counters it writes are the service's, not a copy.
 */
export interface CatalogSeeder {
  module: CatalogModule;
  /** Imports documents in batches (`parallel` at once) with the repository's `importMany`. */
  importEntries(docs: readonly EntryDocument[], batchSize?: number, parallel?: number): Promise<void>;
  close(): Promise<void>;
}

export async function openCatalogSeeder(
  mongoUrl: string,
  dbName: string,
  logger: Logger,
): Promise<CatalogSeeder> {
  // Longer socket timeout than the services' (a batch insert of a few thousand documents is one command).
  const connection: Connection = await mongoose
    .createConnection(mongoUrl, {
      dbName,
      maxPoolSize: 16,
      autoIndex: false,
      autoCreate: false,
      socketTimeoutMS: 120_000,
    })
    .asPromise();
  const module = createCatalogModule({ category: MOVIES, connection, logger, cursorSecret: 'bench-seeder-only-imports-entries-no-cursors' });
  return {
    module,
    async importEntries(docs, batchSize = 1000, parallel = 3) {
      const batches: EntryDocument[][] = [];
      for (let i = 0; i < docs.length; i += batchSize) batches.push(docs.slice(i, i + batchSize));
      await mapLimit(batches, parallel, (batch) => module.catalogRepository.importMany(batch));
    },
    async close() {
      module.stop();
      await connection.close();
    },
  };
}
