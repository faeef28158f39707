import { testMongoUrl } from '@mt/testing';
import mongoose from 'mongoose';
import { createHash } from 'node:crypto';

/** Fields a legitimate request may rewrite without changing anything a hostile request could: see normalise. */
export interface DigestOptions {
  /** `collection.field` paths left out of the digest. */
  ignoreFields?: readonly string[];
  /** Per collection, a filter of documents left out: states equivalent to no document at all. */
  ignoreDocuments?: Readonly<Record<string, Record<string, unknown>>>;
}

export interface DatabaseDigest {
  /** `db.collection` → document count and SHA-256 of every document, in _id order. */
  collections: Record<string, { documents: number; sha256: string }>;
}

/**
 * A fingerprint of every document of every collection of the given databases (read straight from the
 * shared MongoDB, not through the stack's relay): canonical Extended JSON, sorted by _id, hashed.
 */
export async function digestDatabases(
  databases: readonly string[],
  options: DigestOptions = {},
): Promise<DatabaseDigest> {
  const connection = await mongoose
    .createConnection(testMongoUrl(), { serverSelectionTimeoutMS: 5000 })
    .asPromise();
  const { EJSON } = mongoose.mongo.BSON;
  const collections: DatabaseDigest['collections'] = {};
  try {
    for (const dbName of databases) {
      const db = connection.useDb(dbName, { useCache: false }).db;
      if (!db) throw new Error(`no handle on database ${dbName}`);
      const names = (await db.listCollections({}, { nameOnly: true }).toArray())
        .map((c) => c.name)
        .filter((n) => !n.startsWith('system.'))
        .sort();
      for (const name of names) {
        const ignored = (options.ignoreFields ?? [])
          .filter((path) => path.startsWith(`${name}.`))
          .map((path) => path.slice(name.length + 1));
        const hash = createHash('sha256');
        let documents = 0;
        const ignoredDocuments = options.ignoreDocuments?.[name];
        const filter = ignoredDocuments ? { $nor: [ignoredDocuments] } : {};
        for await (const document of db.collection(name).find(filter).sort({ _id: 1 })) {
          for (const field of ignored) delete (document as Record<string, unknown>)[field];
          hash.update(EJSON.stringify(document, { relaxed: false }));
          hash.update('\n');
          documents++;
        }
        collections[`${dbName}.${name}`] = { documents, sha256: hash.digest('hex') };
      }
    }
  } finally {
    await connection.close();
  }
  return { collections };
}

/** The collections whose content differs, with their counts before and after. */
export function digestDifferences(before: DatabaseDigest, after: DatabaseDigest): string[] {
  const names = new Set([...Object.keys(before.collections), ...Object.keys(after.collections)]);
  const differences: string[] = [];
  for (const name of [...names].sort()) {
    const a = before.collections[name];
    const b = after.collections[name];
    if (a?.sha256 !== b?.sha256)
      differences.push(
        `${name}: ${a?.documents ?? 'absent'} documents before, ${b?.documents ?? 'absent'} after`,
      );
  }
  return differences;
}
