import type { mongo } from 'mongoose';

/**
 * How a collection would be sharded (docs/operations.md "Sharding"), declared beside its indexes so a new index
 * is checked against it: a range shard key, with the queries that do not carry it (a sharded cluster sends
 * those to every shard), or the reason the collection stays unsharded.
 */
export type ShardingDeclaration =
  | { collection: string; shardKey: Readonly<Record<string, 1>>; scatterGather: readonly string[] }
  | { collection: string; unsharded: string };

/** An index as `listIndexes` describes it. */
export interface DescribedIndex {
  name?: string;
  key: Readonly<Record<string, unknown>>;
  unique?: boolean;
}

const startsWith = (index: DescribedIndex, fields: readonly string[]) => {
  const keys = Object.keys(index.key);
  return fields.every((field, i) => keys[i] === field && index.key[field] === 1);
};

/**
 * What would stop `sh.shardCollection` with this declaration, or break uniqueness once sharded: no index
 * starting with the shard key, or a unique index (other than `_id`'s) that does not start with it - MongoDB
 * can enforce uniqueness across shards only for the shard key's prefix.
 */
export function shardingProblems(declaration: ShardingDeclaration, indexes: readonly DescribedIndex[]): string[] {
  if ('unsharded' in declaration) return declaration.unsharded.trim() ? [] : [`${declaration.collection}: unsharded without a reason`];
  const fields = Object.keys(declaration.shardKey);
  const problems: string[] = [];
  if (!indexes.some((index) => startsWith(index, fields))) problems.push(`${declaration.collection}: no index starts with the shard key { ${fields.join(', ')} }`);
  for (const index of indexes) {
    if (!index.unique || index.name === '_id_' || startsWith(index, fields)) continue;
    problems.push(`${declaration.collection}: unique index ${index.name ?? JSON.stringify(index.key)} does not start with the shard key { ${fields.join(', ')} }`);
  }
  return problems;
}

/** The mongosh command that shards the collection of `database` (docs/operations.md "Sharding"). */
export function shardCollectionCommand(database: string, declaration: ShardingDeclaration): string | undefined {
  if ('unsharded' in declaration) return undefined;
  return `sh.shardCollection("${database}.${declaration.collection}", ${JSON.stringify(declaration.shardKey).replace(/"/g, '').replace(/:/g, ': ').replace(/,/g, ', ')})`;
}

/**
 * Checks a database's collections (as start-up left them) against `declarations`: a collection without a
 * declaration is a problem too, so a new collection cannot skip the decision.
 */
export async function databaseShardingProblems(db: mongo.Db, declarations: readonly ShardingDeclaration[]): Promise<string[]> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map(({ name }) => name).filter((name) => !name.startsWith('system.'));
  const problems: string[] = [];
  for (const name of names.sort()) {
    const declaration = declarations.find((candidate) => candidate.collection === name);
    if (!declaration) problems.push(`${name}: no sharding declaration (declare it beside the collection's indexes)`);
    else problems.push(...shardingProblems(declaration, (await db.collection(name).indexes()) as DescribedIndex[]));
  }
  return problems;
}
