import { captureLogger, testMongoUrl } from '@mt/testing';
import { closeMongo, createMongoConnection, openMongo } from '@mt/stores';
import type { Connection } from 'mongoose';
import { AtomicRunner, TransactionContentionError, TRANSIENT_RETRY } from './atomic';

const TRANSACTION_ATTEMPTS = TRANSIENT_RETRY.attempts;

describe('AtomicRunner', () => {
  let connection: Connection;
  let atomic: AtomicRunner;
  beforeAll(async () => {
    const { logger } = captureLogger('catalog-service');
    connection = createMongoConnection();
    await openMongo(connection, { url: testMongoUrl(), dbName: 'catalog_atomic_unused', logger });
    atomic = new AtomicRunner(connection, logger);
    await atomic.detect();
  });
  afterAll(() => closeMongo(connection));

  const writeConflict = () => Object.assign(new Error('WriteConflict'), { code: 112 });

  it('runs on a server with transactions (the test store is a replica set)', () => {
    expect(atomic.usesTransactions).toBe(true);
  });

  it('runs the work again after a transient conflict and returns its result', async () => {
    let calls = 0;
    const result = await atomic.run(async () => {
      calls++;
      if (calls < 3) throw writeConflict();
      return 'done';
    });
    expect({ result, calls }).toEqual({ result: 'done', calls: 3 });
  });

  it(`gives up after ${TRANSACTION_ATTEMPTS} conflicting attempts with a TransactionContentionError`, async () => {
    let calls = 0;
    const run = atomic.run(async () => {
      calls++;
      throw writeConflict();
    });
    await expect(run).rejects.toBeInstanceOf(TransactionContentionError);
    expect(calls).toBe(TRANSACTION_ATTEMPTS);
  });

  it('does not retry other errors', async () => {
    let calls = 0;
    const run = atomic.run(async () => {
      calls++;
      throw Object.assign(new Error('duplicate'), { code: 11000 });
    });
    await expect(run).rejects.toMatchObject({ code: 11000 });
    expect(calls).toBe(1);
  });
});
