import type { RedisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';
import { createHash } from 'node:crypto';
import type { CapturedResponse } from './response-capture';

/** A request with this key is being processed by `owner` (a random id of that request). */
export interface InFlightRecord {
  state: 'in_flight';
  fingerprint: string;
}

/** The first request with this key finished; its response, when it was small enough to keep. */
export interface DoneRecord {
  state: 'done';
  fingerprint: string;
  response: { status: number; headers: Record<string, string>; body: Buffer | undefined };
}

export type IdempotencyRecord = InFlightRecord | DoneRecord;

/**
 * Claims the key unless a record exists; returns the existing record's fields (HGETALL) or nothing. A claim
 * of the same owner is ours: the Redis client sends a script again when its connection drops before the
 * answer (a Redis Cluster failover), and the first run may have landed.
 */
const CLAIM_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then return false end
  return redis.call('HGETALL', KEYS[1])
end
redis.call('HSET', KEYS[1], 'state', 'in_flight', 'owner', ARGV[1], 'fingerprint', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return false`;

/**
 * Replaces our in-flight claim by the outcome, only if the claim is still ours, and enters it in the
 * caller's answers: the ones expired meanwhile are forgotten, then the oldest are dropped until the caller
 * is within its bounds (count and bytes; never the answer just stored). Sizes count what the record holds.
 */
const COMPLETE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
local ttl = tonumber(ARGV[7])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'done', 'fingerprint', ARGV[2], 'status', ARGV[3], 'headers', ARGV[4], 'body', ARGV[5], 'stored', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ttl)
local total = tonumber(redis.call('GET', KEYS[3]) or '0')
local function forget(member)
  total = total - (tonumber(string.match(member, ' (%d+)$')) or 0)
  redis.call('ZREM', KEYS[2], member)
end
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl)) do forget(member) end
local size = string.len(ARGV[2]) + string.len(ARGV[4]) + string.len(ARGV[5]) + tonumber(ARGV[12])
local mine = ARGV[9] .. ' ' .. size
redis.call('ZADD', KEYS[2], now, mine)
total = total + size
while redis.call('ZCARD', KEYS[2]) > tonumber(ARGV[10]) or total > tonumber(ARGV[11]) do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if oldest == mine then break end
  local record = ARGV[8] .. string.match(oldest, '^(%S+)')
  if redis.call('HGET', record, 'state') == 'done' then redis.call('DEL', record) end
  forget(oldest)
end
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('SET', KEYS[3], math.max(total, 0), 'PX', ttl)
return 1`;

/** Extends our claim by ARGV[2] ms, only if it is still ours; 1 when it was. */
const RENEW_SCRIPT = `
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** Gives the key up (outcome unknown or not kept), only if the claim is still ours. */
const RELEASE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** How many answers, and how many bytes of them, one caller may have stored at once. */
export interface StoredAnswerBounds {
  maxAnswers: number;
  maxBytes: number;
}

/** Redis's own cost of a stored answer beyond its field values (hash, sorted-set entry, key names). */
const RECORD_OVERHEAD_BYTES = 700;

function toRecord(flat: unknown): IdempotencyRecord {
  const fields = new Map<string, string>();
  const list = Array.isArray(flat) ? (flat as string[]) : [];
  for (let i = 0; i + 1 < list.length; i += 2) fields.set(String(list[i]), String(list[i + 1]));
  const fingerprint = fields.get('fingerprint') ?? '';
  if (fields.get('state') !== 'done') return { state: 'in_flight', fingerprint };
  return {
    state: 'done',
    fingerprint,
    response: {
      status: Number(fields.get('status')),
      headers: JSON.parse(fields.get('headers') ?? '{}') as Record<string, string>,
      body: fields.get('stored') === '1' ? Buffer.from(fields.get('body') ?? '', 'base64') : undefined,
    },
  };
}

/** A caller's key, hashed: any visible key makes a short, safe Redis key name. */
const keyHash = (key: string) => createHash('sha256').update(key).digest('base64url');

export class IdempotencyRepository {
  constructor(
    private readonly redis: Redis,
    private readonly options: { keys: RedisKeys; bounds: StoredAnswerBounds },
  ) {}

  /** Claims `key` for `owner` for `ttlMs`; undefined when claimed, else the record already there. */
  async claim(subject: string, key: string, owner: string, fingerprint: string, ttlMs: number): Promise<IdempotencyRecord | undefined> {
    const existing = await this.redis.eval(CLAIM_SCRIPT, 1, this.keyName(subject, key), owner, fingerprint, String(ttlMs));
    return existing ? toRecord(existing) : undefined;
  }

  /** Replaces `owner`'s claim by the response; false when the claim is no longer ours. */
  async complete(subject: string, key: string, owner: string, fingerprint: string, response: CapturedResponse, ttlMs: number): Promise<boolean> {
    const { bounds } = this.options;
    const body = response.body;
    // One slot (the caller's hash tag): the script evicts the caller's older records by name.
    const set = this.options.keys.idempotencySet(subject, keyHash(key));
    const done = await this.redis.eval(
      COMPLETE_SCRIPT,
      3,
      set.record,
      set.answers,
      set.bytes,
      owner,
      fingerprint,
      String(response.status),
      JSON.stringify(response.headers),
      body ? body.toString('base64') : '',
      body ? '1' : '0',
      String(ttlMs),
      set.recordPrefix,
      keyHash(key),
      String(bounds.maxAnswers),
      String(bounds.maxBytes),
      String(RECORD_OVERHEAD_BYTES),
    );
    return Number(done) === 1;
  }

  /** Extends a claim still held by `owner` by `ttlMs`; false when it is no longer ours. */
  async renew(subject: string, key: string, owner: string, ttlMs: number): Promise<boolean> {
    return Number(await this.redis.eval(RENEW_SCRIPT, 1, this.keyName(subject, key), owner, String(ttlMs))) === 1;
  }

  async release(subject: string, key: string, owner: string): Promise<void> {
    await this.redis.eval(RELEASE_SCRIPT, 1, this.keyName(subject, key), owner);
  }

  private keyName(subject: string, key: string): string {
    return this.options.keys.idempotency(subject, keyHash(key));
  }
}
