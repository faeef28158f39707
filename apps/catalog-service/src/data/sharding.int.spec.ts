import { databaseShardingProblems } from '@mt/stores';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../test/catalog-harness';
import { asUser, newUserId } from '../../test/identity-headers';
import { COLLECTIONS } from './database';
import { CATALOG_SHARDING } from './sharding';

describe('sharding declarations of the catalog', () => {
  let h: CatalogHarness;

  beforeAll(async () => {
    h = await startCatalogHarness({ imports: {} });
    // A catalog entry on a list: the collections made by the first writes exist too, not only the indexed ones.
    const user = newUserId();
    const created = await request(h.app).post('/api/v1/movies').set(asUser(user)).send({ title: 'Sharded', year: 2001 }).expect(201);
    await request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: created.body.id }).expect(201);
  });

  afterAll(async () => {
    await h?.close();
  });

  it('declares every collection the catalog names, once', () => {
    const declared = CATALOG_SHARDING.map((declaration) => declaration.collection);
    expect([...declared].sort()).toEqual(Object.values(COLLECTIONS).sort());
  });

  it("keeps every started catalog collection's indexes compatible with its declared shard key", async () => {
    expect(await databaseShardingProblems(h.module.connection.db!, CATALOG_SHARDING)).toEqual([]);
  });
});
