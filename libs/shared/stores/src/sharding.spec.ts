import { shardCollectionCommand, shardingProblems, type ShardingDeclaration } from './sharding';

const byUser: ShardingDeclaration = { collection: 'entries', shardKey: { user_id: 1, item_id: 1 }, scatterGather: [] };

describe('shardingProblems', () => {
  it('accepts unique indexes that start with the shard key', () => {
    const indexes = [
      { name: '_id_', key: { _id: 1 }, unique: true },
      { name: 'user_item', key: { user_id: 1, item_id: 1 }, unique: true },
      { name: 'item', key: { item_id: 1 } },
    ];
    expect(shardingProblems(byUser, indexes)).toEqual([]);
  });

  it('names a unique index that does not start with the shard key, and a shard key no index supports', () => {
    expect(shardingProblems(byUser, [{ name: 'item_user', key: { item_id: 1, user_id: 1 }, unique: true }])).toEqual([
      'entries: no index starts with the shard key { user_id, item_id }',
      'entries: unique index item_user does not start with the shard key { user_id, item_id }',
    ]);
  });

  it('asks a reason of an unsharded collection', () => {
    expect(shardingProblems({ collection: 'users', unsharded: ' ' }, [])).toEqual(['users: unsharded without a reason']);
    expect(shardingProblems({ collection: 'users', unsharded: 'small' }, [{ key: { a: 1 }, unique: true }])).toEqual([]);
  });
});

describe('shardCollectionCommand', () => {
  it('writes the mongosh command of a sharded collection', () => {
    expect(shardCollectionCommand('catalog_movies', byUser)).toBe('sh.shardCollection("catalog_movies.entries", {user_id: 1, item_id: 1})');
    expect(shardCollectionCommand('auth', { collection: 'users', unsharded: 'small' })).toBeUndefined();
  });
});
