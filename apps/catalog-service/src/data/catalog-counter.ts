import type { ShardingDeclaration } from '@mt/stores';
import { COLLECTIONS } from './database';

/**
 * `count`: the number of catalog entries (an O(1) total for unfiltered listings); `version`: increases
 * with every write that can change what a listing matches or shows (see VersionedCache).
 */
export interface CounterDocument {
  _id: string;
  count: number;
  version: number;
}

/**
 * The counter of the entries collection, written in the same transaction as the entries and split over
 * several documents: every create or change bumps one of them, chosen at random, and a reader adds them
 * up. One hot document would make concurrent writers' transactions conflict with each other (each
 * conflict a retry; 50 concurrent creates exhausted the retries); with the shards two concurrent writes
 * rarely pick the same one. The first shard keeps the id the single counter had.
 */
export const COUNTER_SHARDS = Array.from({ length: 32 }, (_, i) => (i === 0 ? 'entries' : `entries:${i}`));
export const anyShard = () => COUNTER_SHARDS[Math.floor(Math.random() * COUNTER_SHARDS.length)] ?? 'entries';


/** Unsharded: a fixed handful of small documents (COUNTER_SHARDS), written in the transactions of the unsharded entries. */
export const COUNTER_SHARDING: ShardingDeclaration = { collection: COLLECTIONS.counters, unsharded: 'a fixed handful of small documents beside the unsharded entries' };
