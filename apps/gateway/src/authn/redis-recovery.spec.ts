import type { Redis } from '@mt/stores';
import { EventEmitter } from 'node:events';
import { RedisRecovery } from './redis-recovery';

// The connection's events, as ioredis emits them: 'ready' when (re)connected, 'close' when a connection ends.
const connection = () => new EventEmitter() as unknown as Redis & EventEmitter;

describe('RedisRecovery', () => {
  it('is not recovering after the first connection', () => {
    const redis = connection();
    const recovery = new RedisRecovery(redis, { graceMs: 1000, now: () => 0 });
    redis.emit('ready');
    expect(recovery.recovering()).toBe(false);
  });

  it('is recovering for the grace period after a reconnect, then trusts Redis again', () => {
    let now = 0;
    const redis = connection();
    const recovery = new RedisRecovery(redis, { graceMs: 1000, now: () => now });
    redis.emit('ready');
    redis.emit('close');
    now = 5000;
    expect(recovery.recovering()).toBe(false); // during the outage the callers see Redis fail anyway
    redis.emit('ready');
    now = 5999;
    expect(recovery.recovering()).toBe(true);
    now = 6000;
    expect(recovery.recovering()).toBe(false);
  });
});
