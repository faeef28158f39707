import type { RedisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';

/**
 * Redis layout (all under REDIS_KEY_PREFIX):
 * - `registryInstances()`: sorted set, member = instance id, score = expiry time (epoch ms);
 * - `registryInstance(id)`: hash { registration: JSON, registered_at: epoch ms };
 * - `registryChanges()`: pub/sub channel, a JSON message whenever the set of live instances changes.
 *
 * Every operation is one Lua script, so it is atomic, and "now" is Redis' own clock (TIME): several
 * registry instances agree on liveness even when their hosts' clocks drift.
 */

const NOW_MS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

// KEYS: instances, record. ARGV: id, registration JSON, ttl ms, changes channel.
// Returns 1 when the instance was not live before (a new registration), else 0.
const REGISTER = `${NOW_MS}
local ttl = tonumber(ARGV[3])
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
local wasLive = score and tonumber(score) > now
local previous = redis.call('HGET', KEYS[2], 'registration')
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
local changed = (not wasLive) or previous ~= ARGV[2]
if changed then redis.call('HSET', KEYS[2], 'registration', ARGV[2], 'registered_at', now) end
redis.call('PEXPIRE', KEYS[2], ttl * 2)
if changed then
  redis.call('PUBLISH', ARGV[4], cjson.encode({ type = 'registered', instance_id = ARGV[1] }))
end
if wasLive then return 0 end
return 1
`;

// KEYS: instances, record. ARGV: id, ttl ms. Returns 0 when the instance is unknown or already expired.
const HEARTBEAT = `${NOW_MS}
local ttl = tonumber(ARGV[2])
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if (not score) or tonumber(score) <= now or redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], 'XX', now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[2], ttl * 2)
return 1
`;

// KEYS: instances, record. ARGV: id, changes channel. Returns 1 when the instance was known.
const DEREGISTER = `
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
if removed == 1 then
  redis.call('PUBLISH', ARGV[2], cjson.encode({ type = 'deregistered', instance_id = ARGV[1] }))
end
return removed
`;

// KEYS: instances. ARGV: record key prefix, changes channel, batch size. Returns the removed ids.
const SWEEP = `${NOW_MS}
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(expired) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('DEL', ARGV[1] .. id)
end
if #expired > 0 then
  redis.call('PUBLISH', ARGV[2], cjson.encode({ type = 'expired', instance_ids = expired }))
end
return expired
`;

// KEYS: instances. ARGV: record key prefix. Returns { id, registration JSON, registered_at } per live instance.
const LIVE = `${NOW_MS}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
local out = {}
for _, id in ipairs(ids) do
  local record = redis.call('HMGET', ARGV[1] .. id, 'registration', 'registered_at')
  if record[1] then table.insert(out, { id, record[1], record[2] }) end
end
return out
`;

const SWEEP_BATCH = 1000;

export interface StoredInstance {
  instanceId: string;
  /** The registration as stored (JSON); parsed and checked by the service. */
  registrationJson: string;
  registeredAtMs: number;
}

export interface InstancesRepository {
  /** Resolves true when the instance was not live before. Publishes a change unless nothing changed. */
  register(instanceId: string, registrationJson: string, ttlMs: number): Promise<boolean>;
  /** Resolves false when the instance is unknown or already expired. */
  heartbeat(instanceId: string, ttlMs: number): Promise<boolean>;
  /** Resolves false when the instance was unknown. Publishes a change otherwise. */
  deregister(instanceId: string): Promise<boolean>;
  /** Removes expired instances (publishing one change) and resolves their ids. */
  removeExpired(): Promise<string[]>;
  liveInstances(): Promise<StoredInstance[]>;
}

export function createInstancesRepository(redis: Redis, keys: RedisKeys): InstancesRepository {
  const recordPrefix = keys.registryInstance('');
  const instances = keys.registryInstances();
  const channel = keys.registryChanges();
  return {
    async register(instanceId, registrationJson, ttlMs) {
      const result = await redis.eval(REGISTER, 2, instances, keys.registryInstance(instanceId), instanceId, registrationJson, ttlMs, channel);
      return result === 1;
    },
    async heartbeat(instanceId, ttlMs) {
      return (await redis.eval(HEARTBEAT, 2, instances, keys.registryInstance(instanceId), instanceId, ttlMs)) === 1;
    },
    async deregister(instanceId) {
      return (await redis.eval(DEREGISTER, 2, instances, keys.registryInstance(instanceId), instanceId, channel)) === 1;
    },
    async removeExpired() {
      return (await redis.eval(SWEEP, 1, instances, recordPrefix, channel, SWEEP_BATCH)) as string[];
    },
    async liveInstances() {
      const rows = (await redis.eval(LIVE, 1, instances, recordPrefix)) as Array<[string, string, string]>;
      return rows.map(([instanceId, registrationJson, registeredAt]) => ({
        instanceId,
        registrationJson,
        registeredAtMs: Number(registeredAt),
      }));
    },
  };
}
