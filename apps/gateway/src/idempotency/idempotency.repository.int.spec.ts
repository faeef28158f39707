import { closeRedis, createRedis, waitForRedis, type Redis } from '@mt/stores';
import { deleteRedisPrefix, silentLogger, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { redisKeys } from '@mt/contracts';
import { IdempotencyRepository } from './idempotency.repository';

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
    const repository = new IdempotencyRepository(redis, { keys: redisKeys(prefix), bounds: { maxAnswers: 10, maxBytes: 65_536 } });
    expect(await repository.claim('user:1', 'key-1', 'owner-a', 'print', 60_000)).toBeUndefined();
    expect(await repository.claim('user:1', 'key-1', 'owner-a', 'print', 60_000)).toBeUndefined();
    expect(await repository.claim('user:1', 'key-1', 'owner-b', 'print', 60_000)).toEqual({ state: 'in_flight', fingerprint: 'print' });
  });

  it('renews a claim for its owner only, and lets it lapse when no one renews it', async () => {
    const repository = new IdempotencyRepository(redis, { keys: redisKeys(prefix), bounds: { maxAnswers: 10, maxBytes: 65_536 } });
    expect(await repository.claim('user:2', 'key-2', 'owner-a', 'print', 300)).toBeUndefined();
    expect(await repository.renew('user:2', 'key-2', 'owner-b', 60_000)).toBe(false);
    expect(await repository.renew('user:2', 'key-2', 'owner-a', 1_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await repository.claim('user:2', 'key-2', 'owner-b', 'print', 300)).toEqual({ state: 'in_flight', fingerprint: 'print' });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await repository.claim('user:2', 'key-2', 'owner-b', 'print', 300)).toBeUndefined();
  });
});
