import type { CursorCodec, CursorPosition } from './cursor-codec';
import { isStartCursor } from './cursor-params';

/** Where a cursor request starts reading: at the beginning (`after: null`) or after a position, as of a snapshot time. */
export interface CursorWalk {
  after: CursorPosition | null;
  snapshotAt: number;
}

/** Turns the `cursor` parameter into a walk: `''`/`start` begin one now; anything else must decode for this query. */
export function resumeWalk(codec: CursorCodec, cursor: string, query: Record<string, unknown>, now: number = Date.now()): CursorWalk {
  if (isStartCursor(cursor)) return { after: null, snapshotAt: now };
  const decoded = codec.decode(cursor, query);
  return { after: decoded.after, snapshotAt: decoded.snapshotAt };
}

/**
 * The `next_cursor` of a page: null when nothing follows, else a cursor after the page's last entry.
 * `hasMore` is best known by reading one entry more than the page (limit + 1).
 */
export function nextCursor(
  codec: CursorCodec,
  query: Record<string, unknown>,
  walk: { snapshotAt: number },
  lastPosition: CursorPosition | undefined,
  hasMore: boolean,
): string | null {
  if (!hasMore || lastPosition === undefined) return null;
  return codec.encode(query, { after: lastPosition, snapshotAt: walk.snapshotAt });
}
