import { closeRedis, createRedis, waitForRedis, type Redis } from '@mt/stores';
import { deleteRedisPrefix, silentLogger, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { createIdempotencyRepository } from './idempotency.repository';

describe('idempotency repository', () => {
  const prefix = testRedisPrefix('idem-repo');
  let redis: Redis;

  beforeAll(async () => {
    redis = createRedis({ url: testRedisUrl(), logger: silentLogger(), name: 'idem-repo' });
    await waitForRedis(redis);
  });

  afterAll(async () => {
    await deleteRedisPrefix(prefix);
    await closeRedis(redis);
  });

  it('takes a claim sent again by its owner as its own (a resend after a failover), and refuses another owner', async () => {
    const repository = createIdempotencyRepository(redis, prefix, { maxAnswers: 10, maxBytes: 65_536 });
    expect(await repository.claim('user:1', 'key-1', 'owner-a', 'print', 60_000)).toBeUndefined();
    expect(await repository.claim('user:1', 'key-1', 'owner-a', 'print', 60_000)).toBeUndefined();
    expect(await repository.claim('user:1', 'key-1', 'owner-b', 'print', 60_000)).toEqual({ state: 'in_flight', fingerprint: 'print' });
  });
});
