import { dropTestDatabase, silentLogger, testDbName, testMongoUrl } from '@mt/testing';
import type { Connection, mongo } from 'mongoose';
import { closeMongo, createMongoConnection, MONGO_MAX_POOL_SIZE, openMongo } from './mongo';
import { TransactionRunner } from './transactions';

/** The shared unit of work against a real MongoDB (replica set, so real transactions). */
describe('TransactionRunner', () => {
  const dbName = testDbName('stores_tx');
  let connection: Connection;
  let runner: TransactionRunner;
  const collection = (name: string) => connection.db!.collection<{ _id: string; n?: number }>(name);

  beforeAll(async () => {
    connection = createMongoConnection();
    await openMongo(connection, { url: testMongoUrl(), dbName, logger: silentLogger() });
    runner = new TransactionRunner(connection, silentLogger());
    await runner.detect();
    // Collections exist before the races (creating one inside concurrent transactions is a race of its own).
    for (const name of ['conflicts', 'no_retry', 'capped', 'one_key', 'one_key_tally'])
      await connection.db!.createCollection(name);
  });
  afterAll(async () => {
    await closeMongo(connection);
    await dropTestDatabase(dbName);
  });

  it('runs in transactions on a replica set', () => {
    expect(runner.usesTransactions).toBe(true);
  });

  it('retries transactions that conflict on one document until each has committed once', async () => {
    const counter = collection('conflicts');
    await counter.insertOne({ _id: 'c', n: 0 });
    let attempts = 0;
    // Five writers of one document: each round at least one commits, so five tries always suffice.
    await Promise.all(
      Array.from({ length: 5 }, () =>
        runner.run(async (session) => {
          attempts++;
          const current = await counter.findOne({ _id: 'c' }, { session });
          await counter.updateOne({ _id: 'c' }, { $set: { n: (current?.n ?? 0) + 1 } }, { session });
        }),
      ),
    );
    expect((await counter.findOne({ _id: 'c' }))?.n).toBe(5);
    // Conflicts happened (and were retried): a lost update would have left n below 5.
    expect(attempts).toBeGreaterThan(5);
  });

  it('does not retry a failure that is not a conflict, and rolls the unit back', async () => {
    const things = collection('no_retry');
    await things.insertOne({ _id: 'taken' });
    let calls = 0;
    const failure = runner.run(async (session) => {
      calls++;
      await things.insertOne({ _id: 'first' }, { session });
      await things.insertOne({ _id: 'taken' }, { session });
    });
    await expect(failure).rejects.toMatchObject({ code: 11000 });
    expect(calls).toBe(1);
    expect(await things.countDocuments({ _id: 'first' })).toBe(0);
  });

  it('never has more transactions in flight than its cap', async () => {
    const capped = new TransactionRunner(connection, silentLogger(), { maxConcurrent: 2 });
    await capped.detect();
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        capped.run(async (session) => {
          running++;
          peak = Math.max(peak, running);
          await collection('capped').insertOne({ _id: `doc${i}` }, { session });
          await new Promise((resolve) => setTimeout(resolve, 20));
          running--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(await collection('capped').countDocuments()).toBe(8);
  });

  it('finishes more racing transactions on one unique key than the pool has connections, within seconds', async () => {
    // Each blocked insert holds a pooled connection; uncapped, the transaction holding the key could not
    // get one for its next statement, and everyone waited for the socket timeout (20 s and more).
    const keys = collection('one_key');
    const tally = collection('one_key_tally');
    const racers = MONGO_MAX_POOL_SIZE + 10;
    const startedAt = Date.now();
    const outcomes = await Promise.all(
      Array.from({ length: racers }, () =>
        runner
          .run(async (session) => {
            await keys.insertOne({ _id: 'the-key' }, { session });
            await tally.updateOne({ _id: 'inserts' }, { $inc: { n: 1 } }, { upsert: true, session });
          })
          .then(
            () => 'committed',
            (error: mongo.MongoServerError) =>
              error.code === 11000 ? 'duplicate' : `failed: ${error.message}`,
          ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome !== 'duplicate')).toEqual(['committed']);
    expect((await tally.findOne({ _id: 'inserts' }))?.n).toBe(1);
    expect(Date.now() - startedAt).toBeLessThan(15_000);
  });
});
