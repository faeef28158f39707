import { toId, type Id } from '../shared/ids';

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

const VERSION = 'f1';

export function encodeFeedPosition(position: FeedPosition): string {
  const parts = [VERSION, String(position.seq), position.itemId?.toHexString() ?? '', String(position.at.getTime())];
  return Buffer.from(parts.join(':'), 'utf8').toString('base64url');
}

/** The position, or null for anything this service did not issue (the caller answers 400). */
export function decodeFeedPosition(text: string): FeedPosition | null {
  if (text.length > 128 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const parts = Buffer.from(text, 'base64url').toString('utf8').split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) return null;
  const [, seqText = '', itemText = '', atText = ''] = parts;
  if (!/^\d{1,15}$/.test(seqText) || !/^\d{1,15}$/.test(atText)) return null;
  if (itemText !== '' && !/^[0-9a-f]{24}$/.test(itemText)) return null;
  return {
    seq: Number(seqText),
    itemId: itemText ? toId(itemText) : null,
    at: new Date(Number(atText)),
  };
}
