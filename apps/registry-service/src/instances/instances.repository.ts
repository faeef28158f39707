import type { RedisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';

/**
 * Redis layout (all under REDIS_KEY_PREFIX):
 * - `registryInstances()`: sorted set, member = instance id, score = expiry time (epoch ms);
 * - `registryInstance(id)`: hash { registration: JSON, registered_at: epoch ms, service };
 * - `registryServices()`: hash, service id → { registration JSON of its latest registration, updated_at }, so a
 *   service whose instances are all restarting keeps its routes (503, not 404) and its OpenAPI operations;
 * - `registryWatching()`: a marker refreshed by every sweep: some registry is watching heartbeats;
 * - `registryChanges()`: pub/sub channel, a JSON message whenever the route table changes.
 *
 * Every operation is one Lua script, so it is atomic, and "now" is Redis' own clock (TIME): several
 * registry instances agree on liveness even when their hosts' clocks drift.
 */

const NOW_MS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** Instance records outlive their expiry by far: a registry outage longer than the TTL must not lose them. */
const RECORD_RETENTION_MS = 24 * 60 * 60 * 1000;

// KEYS: instances, record, services. ARGV: id, registration JSON, ttl ms, channel, service id, retention ms.
// Returns 1 when the instance was not live before (a new registration), else 0.
const REGISTER = `${NOW_MS}
local ttl = tonumber(ARGV[3])
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
local wasLive = score and tonumber(score) > now
local previous = redis.call('HGET', KEYS[2], 'registration')
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
local changed = (not wasLive) or previous ~= ARGV[2]
if changed then redis.call('HSET', KEYS[2], 'registration', ARGV[2], 'registered_at', now, 'service', ARGV[5]) end
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[6]))
local known = redis.call('HGET', KEYS[3], ARGV[5])
local knownChanged = (not known) or string.sub(known, 1, string.len(ARGV[2]) + 1) ~= ARGV[2] .. '\\n'
redis.call('HSET', KEYS[3], ARGV[5], ARGV[2] .. '\\n' .. now)
if changed or knownChanged then
  redis.call('PUBLISH', ARGV[4], cjson.encode({ type = 'registered', instance_id = ARGV[1] }))
end
if wasLive then return 0 end
return 1
`;

// KEYS: instances, record. ARGV: id, ttl ms, retention ms. Returns 0 when the instance is unknown or expired.
const HEARTBEAT = `${NOW_MS}
local ttl = tonumber(ARGV[2])
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if (not score) or tonumber(score) <= now or redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], 'XX', now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]))
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

// KEYS: instances, watching. ARGV: record key prefix, changes channel, batch size, watching ttl ms.
// Returns the removed ids.
const SWEEP = `${NOW_MS}
redis.call('SET', KEYS[2], now, 'PX', tonumber(ARGV[4]))
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

// KEYS: instances, watching. ARGV: ttl ms. When no registry has been watching (the marker is gone), every
// instance still recorded gets one TTL from now to prove itself: its missed heartbeats had nobody to
// receive them. Returns how many instances were granted time.
const AMNESTY = `${NOW_MS}
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now + tonumber(ARGV[1]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), id) end
return #ids
`;

// KEYS: instances, services. ARGV: record key prefix, '1' to return the records too.
// Returns { fingerprint, live, known }: live = { id, registration JSON, registered_at } per live instance,
// known = { service, stored value } per known service (empty unless asked for). The fingerprint names what
// the route table is built from: each live instance's id, registration time and registration length, each
// known service's update time and value length, sorted (heartbeats reorder the set by expiry). A record's
// registration changes only together with its registration time (REGISTER), so an equal fingerprint means
// an equal table, and reading it costs no registration's bytes.
const ROUTE_SOURCES = `${NOW_MS}
local withRecords = ARGV[2] == '1'
local parts, live, known = {}, {}, {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')) do
  local key = ARGV[1] .. id
  local registeredAt = redis.call('HGET', key, 'registered_at')
  if registeredAt then
    table.insert(parts, 'i ' .. id .. ' ' .. registeredAt .. ' ' .. redis.call('HSTRLEN', key, 'registration'))
    if withRecords then table.insert(live, { id, redis.call('HGET', key, 'registration'), registeredAt }) end
  end
end
local services = redis.call('HGETALL', KEYS[2])
for i = 1, #services, 2 do
  local value = services[i + 1]
  table.insert(parts, 's ' .. services[i] .. ' ' .. (string.match(value, '\\n(%d+)$') or '') .. ' ' .. #value)
  if withRecords then table.insert(known, { services[i], value }) end
end
table.sort(parts)
return { table.concat(parts, '\\n'), live, known }
`;

// KEYS: services. ARGV: service id, changes channel.
const FORGET = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], cjson.encode({ type = 'forgotten', service = ARGV[1] }))
return 1
`;

const SWEEP_BATCH = 1000;

export interface StoredInstance {
  instanceId: string;
  /** The registration as stored (JSON); parsed and checked by the service. */
  registrationJson: string;
  registeredAtMs: number;
}

export interface StoredService {
  service: string;
  /** The service's latest registration (JSON). */
  registrationJson: string;
  updatedAtMs: number;
}

export interface RouteSources {
  /** Equal for two reads exactly when the table built from them is equal. */
  fingerprint: string;
  live: StoredInstance[];
  known: StoredService[];
}

/** The registry's Redis records: every operation one atomic script (see the layout above). */
export class InstancesRepository {
  private readonly recordPrefix: string;
  private readonly instances: string;
  private readonly services: string;
  private readonly watching: string;
  private readonly channel: string;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {
    // One hash slot (registrySet): the scripts read several of these, and records by their prefix.
    const set = keys.registrySet();
    this.recordPrefix = set.instancePrefix;
    this.instances = set.instances;
    this.services = set.services;
    this.watching = set.watching;
    this.channel = keys.registryChanges();
  }

  /** Resolves true when the instance was not live before. Publishes a change unless nothing changed. */
  async register(instanceId: string, service: string, registrationJson: string, ttlMs: number): Promise<boolean> {
    const record = this.keys.registryInstance(instanceId);
    const result = await this.redis.eval(REGISTER, 3, this.instances, record, this.services, instanceId, registrationJson, ttlMs, this.channel, service, RECORD_RETENTION_MS);
    return result === 1;
  }

  /** Resolves false when the instance is unknown or already expired. */
  async heartbeat(instanceId: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(HEARTBEAT, 2, this.instances, this.keys.registryInstance(instanceId), instanceId, ttlMs, RECORD_RETENTION_MS)) === 1;
  }

  /** Resolves false when the instance was unknown. Publishes a change otherwise. */
  async deregister(instanceId: string): Promise<boolean> {
    return (await this.redis.eval(DEREGISTER, 2, this.instances, this.keys.registryInstance(instanceId), instanceId, this.channel)) === 1;
  }

  /** Removes expired instances (publishing one change), marks the registry as watching for `watchingTtlMs`. */
  async removeExpired(watchingTtlMs: number): Promise<string[]> {
    return (await this.redis.eval(SWEEP, 2, this.instances, this.watching, this.recordPrefix, this.channel, SWEEP_BATCH, watchingTtlMs)) as string[];
  }

  /** When no registry was watching, gives every recorded instance `ttlMs` from now; resolves how many. */
  async grantAmnesty(ttlMs: number): Promise<number> {
    return Number(await this.redis.eval(AMNESTY, 2, this.instances, this.watching, ttlMs));
  }

  /** What the route table is built from now, with its fingerprint (see ROUTE_SOURCES), read atomically. */
  async routeSources(): Promise<RouteSources> {
    const [fingerprint, live, known] = (await this.redis.eval(ROUTE_SOURCES, 2, this.instances, this.services, this.recordPrefix, '1')) as [
      string,
      Array<[string, string, string]>,
      Array<[string, string]>,
    ];
    return {
      fingerprint,
      live: live.map(([instanceId, registrationJson, registeredAt]) => ({ instanceId, registrationJson, registeredAtMs: Number(registeredAt) })),
      known: known.map(([service, value]) => {
        const cut = value.lastIndexOf('\n');
        return { service, registrationJson: value.slice(0, cut), updatedAtMs: Number(value.slice(cut + 1)) };
      }),
    };
  }

  /** The fingerprint of the route table's sources alone: equal to the last read's when nothing changed. */
  async routeSourcesFingerprint(): Promise<string> {
    return ((await this.redis.eval(ROUTE_SOURCES, 2, this.instances, this.services, this.recordPrefix, '0')) as [string])[0];
  }

  /** Resolves false when the service was not known. */
  async forgetService(service: string): Promise<boolean> {
    return (await this.redis.eval(FORGET, 1, this.services, service, this.channel)) === 1;
  }
}
