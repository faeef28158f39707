import { mongo } from 'mongoose';
import type { CatalogModule } from '../src/composition/catalog-module';
import type { EntryFieldsInput } from '../src/domain/catalog-query';
import { newEntryDocument } from '../src/domain/catalog-entry';
import type { EntryDocument } from '../src/domain/records/catalog-entry.record';

export interface SeedInput extends EntryFieldsInput {
  title: string;
  created_at?: Date;
  updated_at?: Date;
  created_by?: string | null;
  _id?: mongo.ObjectId;
}

/**
 * Builds entries exactly as the API does (same derived keys) with chosen timestamps, and imports them in
 * batches with insertMany: the sandbox manages a few thousand single writes a second, far fewer than a
 * big data set needs.
 */
export async function seedEntries(module: CatalogModule, inputs: SeedInput[], batchSize = 5000): Promise<EntryDocument[]> {
  const docs = inputs.map(({ created_at, updated_at, created_by, _id, ...fields }) => {
    const now = created_at ?? new Date();
    const doc = newEntryDocument(module.category, fields, created_by ?? null, now);
    if (_id) doc._id = _id;
    doc.updated_at = updated_at ?? now;
    return doc;
  });
  for (let i = 0; i < docs.length; i += batchSize) await module.catalogRepository.importMany(docs.slice(i, i + batchSize));
  return docs;
}
