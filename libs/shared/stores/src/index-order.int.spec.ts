import { dropTestDatabase, silentLogger, testDbName, testMongoUrl } from '@mt/testing';
import type { Connection } from 'mongoose';
import { sortsInsteadOfWalkingIndexes } from './index-order';
import { closeMongo, createMongoConnection, openMongo } from './mongo';

/** The start-up probe that chooses range hints: it must tell mongod and DocumentDB (the test server) apart. */
describe('sortsInsteadOfWalkingIndexes', () => {
  const dbName = testDbName('stores_order');
  let connection: Connection;

  beforeAll(async () => {
    connection = createMongoConnection();
    await openMongo(connection, { url: testMongoUrl(), dbName, logger: silentLogger() });
    await connection.db!.collection('probed').insertMany([{ a: 2 }, { a: 1 }]);
  });
  afterAll(async () => {
    await closeMongo(connection);
    await dropTestDatabase(dbName);
  });

  it('says yes exactly when the connected server is a DocumentDB engine (which sorts instead)', async () => {
    const info = await connection.db!.admin().command({ buildInfo: 1 });
    const documentDb = ((info['storageEngines'] as string[] | undefined) ?? []).includes('documentdb');
    expect(await sortsInsteadOfWalkingIndexes(connection.db!.collection('probed'))).toBe(documentDb);
  });

  it('answers no (plain queries, always correct) when the plan cannot be read', async () => {
    const failing = { find: () => ({ sort: () => ({ limit: () => ({ explain: () => Promise.reject(new Error('explain not supported')) }) }) }) };
    expect(await sortsInsteadOfWalkingIndexes(failing as never)).toBe(false);
  });
});
