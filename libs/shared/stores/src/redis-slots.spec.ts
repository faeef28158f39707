import { groupBySlot, hashSlot } from './redis-slots';

describe('hashSlot', () => {
  it('gives the slots Redis Cluster gives (CLUSTER KEYSLOT)', () => {
    expect(hashSlot('foo')).toBe(12182);
    expect(hashSlot('123456789')).toBe(12739);
    expect(hashSlot('')).toBe(0);
  });

  it('hashes only the first non-empty hash tag', () => {
    expect(hashSlot('mt:{user:42}:a')).toBe(hashSlot('user:42'));
    expect(hashSlot('other:{user:42}')).toBe(hashSlot('user:42'));
    expect(hashSlot('{}x')).toBe(hashSlot('{}x'));
    expect(hashSlot('a{}{b}')).not.toBe(hashSlot('b'));
  });
});

describe('groupBySlot', () => {
  it('keeps one group on one server and splits by slot on a cluster', () => {
    const keys = ['{a}1', '{a}2', '{b}1'];
    expect(groupBySlot(keys, (key) => key, false)).toEqual([keys]);
    expect(groupBySlot(keys, (key) => key, true)).toEqual([['{a}1', '{a}2'], ['{b}1']]);
    expect(groupBySlot([], (key: string) => key, true)).toEqual([]);
  });
});
