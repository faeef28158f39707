import { redisKeys } from '@mt/contracts';
import { hashSlot } from './redis-slots';

/** The slots of a key set's keys, a key prefix counted with an id appended (as the scripts use it). */
function slotsOf(set: Record<string, string>): Set<number> {
  return new Set(Object.values(set).flatMap((key) => [hashSlot(key), hashSlot(`${key}some-id`)]));
}

/** BullMQ's keys of one queue: `<prefix>:<queue>:<suffix>` (a sample of what its scripts touch together). */
const BULL_SUFFIXES = ['wait', 'active', 'paused', 'delayed', 'prioritized', 'completed', 'failed', 'stalled', 'stalled-check', 'id', 'meta', 'events', 'marker', 'job-1', 'job-1:lock'];

describe('redis keys on a cluster', () => {
  const keys = redisKeys('mt:');
  const sets = Object.entries(keys).filter(([name]) => name.endsWith('Set'));

  it('declares the key sets the multi-key scripts use', () => {
    expect(sets.map(([name]) => name).sort()).toEqual(['idempotencySet', 'registrySet']);
  });

  it.each(sets)('keeps every key of %s in one hash slot', (_name, build) => {
    const set = (build as (...args: string[]) => Record<string, string>)('user:42', 'a-key-hash');
    expect(slotsOf(set).size).toBe(1);
  });

  it('finds a key set that spans slots', () => {
    expect(slotsOf({ cutoff: keys.jwtCutoff('42'), pat: keys.patCache('a-token-hash') }).size).toBeGreaterThan(1);
  });

  it("keeps each import queue's keys in one slot, another category's elsewhere", () => {
    const queueKeys = (category: string) => BULL_SUFFIXES.map((suffix) => `${keys.importQueuePrefix(category)}:imports-${category}:${suffix}`);
    expect(new Set(queueKeys('movies').map(hashSlot)).size).toBe(1);
    expect(hashSlot(queueKeys('movies')[0]!)).not.toBe(hashSlot(queueKeys('books')[0]!));
  });

  it("gives a user's keys one slot and spreads users over the cluster", () => {
    expect(hashSlot(keys.jwtCutoff('42'))).toBe(hashSlot(keys.idempotency('user:42', 'h')));
    const slots = new Set(Array.from({ length: 200 }, (_, i) => hashSlot(keys.jwtCutoff(`user-${i}`))));
    expect(slots.size).toBeGreaterThan(190);
  });
});
