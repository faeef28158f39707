import { closeMongo, createMongoConnection, databaseShardingProblems, openMongo } from '@mt/stores';
import { dropTestDatabase, silentLogger, testDbName, testMongoUrl } from '@mt/testing';
import type { Connection } from 'mongoose';
import { COLLECTIONS, ScrobbleDatabase } from './database';
import { EventsRepository } from './events.repository';
import { HooksRepository } from './hooks.repository';
import { InboxRepository } from './inbox.repository';
import { MappingsRepository } from './mappings.repository';
import { PlayGuardsRepository } from './play-guards.repository';
import { SCROBBLE_SHARDING } from './sharding';

describe('sharding declarations of the scrobble service', () => {
  const dbName = testDbName('scrobble_sharding');
  let connection: Connection;

  beforeAll(async () => {
    connection = createMongoConnection();
    await openMongo(connection, { url: testMongoUrl(), dbName, logger: silentLogger() });
    // The indexes start-up ensures (ScrobbleModule.prepare).
    const db = new ScrobbleDatabase(connection);
    await Promise.all([new HooksRepository(db), new EventsRepository(db), new PlayGuardsRepository(db), new InboxRepository(db), new MappingsRepository(db)].map((repository) => repository.ensureIndexes()));
  });

  afterAll(async () => {
    await closeMongo(connection);
    await dropTestDatabase(dbName);
  });

  it('declares every collection the service names, once', () => {
    expect(SCROBBLE_SHARDING.map((declaration) => declaration.collection).sort()).toEqual(Object.values(COLLECTIONS).sort());
  });

  it("keeps every started collection's indexes compatible with its declared shard key", async () => {
    expect(await databaseShardingProblems(connection.db!, SCROBBLE_SHARDING)).toEqual([]);
  });
});
