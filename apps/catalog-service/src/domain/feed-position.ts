import { isObjectIdHex } from '@mt/validation';
import type { mongo } from 'mongoose';
import { toId, type Id } from './ids';

/**
 * Where a client stands in its change feed: after every record of sequence numbers below `seq`, and
 * after the records of `seq` up to `itemId` (all of `seq` without it); `at` is when that position was
 * current, which tells whether the tombstones after it are still retained. Opaque to clients (base64url);
 * not signed: it only selects among the caller's own records, so a forged one can show nothing new.
 */
export interface FeedPosition {
  seq: number;
  itemId: Id | null;
  at: Date;
}

/**
 * `f2`: the feed reads list entries by their own `seq` besides the records of `list_changes`. Positions of
 * `f1` (upserts only in `list_changes`) may have been handed out by an instance of the previous version while
 * this one was already writing, so they may have skipped changes: they are refused as expired (410, the
 * client re-reads the list once), never trusted.
 */
const VERSION = 'f2';
const RETIRED_VERSIONS = ['f1'];

export function encodeFeedPosition(position: FeedPosition): string {
  const parts = [VERSION, String(position.seq), position.itemId?.toHexString() ?? '', String(position.at.getTime())];
  return Buffer.from(parts.join(':'), 'utf8').toString('base64url');
}

/**
 * The position; 'retired' for a well-formed position of an earlier version (the caller answers 410); null
 * for anything this service did not issue (the caller answers 400).
 */
export function decodeFeedPosition(text: string): FeedPosition | 'retired' | null {
  if (text.length > 128 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const parts = Buffer.from(text, 'base64url').toString('utf8').split(':');
  if (parts.length !== 4) return null;
  const [version = '', seqText = '', itemText = '', atText = ''] = parts;
  if (!/^\d{1,15}$/.test(seqText) || !/^\d{1,15}$/.test(atText)) return null;
  if (itemText !== '' && !isObjectIdHex(itemText)) return null;
  if (version !== VERSION) return RETIRED_VERSIONS.includes(version) ? 'retired' : null;
  return {
    seq: Number(seqText),
    itemId: itemText ? toId(itemText) : null,
    at: new Date(Number(atText)),
  };
}

/** Where a read of the feed resumes (a position without its time). */
export type FeedResume = Pick<FeedPosition, 'seq' | 'itemId'>;

/**
 * The user's feed rows (list entries or `list_changes` records: both have `user_id`, `seq`, `item_id`)
 * strictly after `after` (from the start without it; after all of `after.seq` when it names no item) and
 * numbered at most `maxSeq`.
 */
export function feedFilter<T>(userId: string, after: FeedResume | null, maxSeq: number): mongo.Filter<T> {
  const filter: Record<string, unknown> = { user_id: userId, seq: { $lte: maxSeq } };
  if (after?.itemId) filter['$or'] = [{ seq: { $gt: after.seq, $lte: maxSeq } }, { seq: after.seq, item_id: { $gt: after.itemId } }];
  else if (after) filter['seq'] = { $gt: after.seq, $lte: maxSeq };
  return filter as mongo.Filter<T>;
}
