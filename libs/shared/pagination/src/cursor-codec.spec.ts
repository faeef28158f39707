import { AppError } from '@mt/errors';
import { CURSOR_MAX_AGE_MS, CursorCodec } from './cursor-codec';
import { nextCursor, resumeWalk } from './cursor-walk';
import { queryFingerprint } from './query-fingerprint';

const SECRET = 'a-shared-internal-secret-of-32-characters!';
const query = { q: 'matrix', sort: 'title', order: 'asc' };

function codecAt(clock: { now: number }, secret = SECRET) {
  return new CursorCodec({ secret, now: () => clock.now });
}

function decodeError(action: () => unknown): AppError {
  try {
    action();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('cursor codec', () => {
  const clock = { now: Date.parse('2026-11-25T05:00:00.000Z') };

  it('round-trips position and snapshot time through an opaque base64url string', () => {
    const codec = codecAt(clock);
    const cursor = codec.encode(query, { after: ['the matrix', '65f1c0ffee0000000000abcd'], snapshotAt: 1234 });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(codec.decode(cursor, query)).toEqual({ after: ['the matrix', '65f1c0ffee0000000000abcd'], snapshotAt: 1234, issuedAt: clock.now });
  });

  it('is accepted by another instance sharing the secret, refused by one with another secret', () => {
    const cursor = codecAt(clock).encode(query, { after: [1], snapshotAt: 1 });
    expect(codecAt(clock).decode(cursor, query).after).toEqual([1]);
    const error = decodeError(() => codecAt(clock, 'another-secret-of-at-least-32-characters').decode(cursor, query));
    expect(error.status).toBe(400);
    expect(error.details).toEqual([{ path: 'cursor', message: 'is not a cursor issued by this API' }]);
  });

  it('refuses a tampered cursor with 400', () => {
    const codec = codecAt(clock);
    const cursor = codec.encode(query, { after: [1], snapshotAt: 1 });
    const raw = Buffer.from(cursor, 'base64url');
    const body = JSON.parse(raw.subarray(16).toString('utf8'));
    body.a = [999];
    const forged = Buffer.concat([raw.subarray(0, 16), Buffer.from(JSON.stringify(body))]).toString('base64url');
    expect(decodeError(() => codec.decode(forged, query)).status).toBe(400);
    const flipped = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
    expect(decodeError(() => codec.decode(flipped, query)).status).toBe(400);
  });

  it.each(['not a cursor', '!!!', 'AAAA', 'x'.repeat(5000), ''])('refuses garbage %#', (garbage) => {
    expect(decodeError(() => codecAt(clock).decode(garbage, query)).code).toBe('validation_failed');
  });

  it('is bound to filters, sort and order, not to page size', () => {
    const codec = codecAt(clock);
    const cursor = codec.encode(query, { after: [1], snapshotAt: 1 });
    expect(codec.decode(cursor, { ...query, limit: 50, page: undefined }).after).toEqual([1]);
    expect(codec.decode(cursor, { order: 'asc', sort: 'title', q: 'matrix' }).after).toEqual([1]);
    for (const other of [{ ...query, q: 'matri' }, { ...query, order: 'desc' }, { ...query, sort: 'year' }, { ...query, genre: 'drama' }]) {
      expect(decodeError(() => codec.decode(cursor, other)).details?.[0]?.message).toMatch(/another query/);
    }
  });

  it('stays valid for at least 24 hours and expires after its maximum age', () => {
    const issue = { now: clock.now };
    const cursor = codecAt(issue).encode(query, { after: [1], snapshotAt: 1 });
    expect(codecAt({ now: clock.now + 24 * 3_600_000 }).decode(cursor, query).after).toEqual([1]);
    expect(codecAt({ now: clock.now + CURSOR_MAX_AGE_MS }).decode(cursor, query).after).toEqual([1]);
    const late = decodeError(() => codecAt({ now: clock.now + CURSOR_MAX_AGE_MS + 1 }).decode(cursor, query));
    expect(late.details?.[0]?.message).toMatch(/expired/);
  });
});

describe('cursor walk', () => {
  const codec = new CursorCodec({ secret: SECRET });

  it('starts with an empty cursor or "start" and keeps the first snapshot time on every page', () => {
    expect(resumeWalk(codec, '', query, 100)).toEqual({ after: null, snapshotAt: 100 });
    expect(resumeWalk(codec, 'start', query, 100)).toEqual({ after: null, snapshotAt: 100 });
    const second = nextCursor(codec, query, { snapshotAt: 100 }, ['b', 'id2'], true);
    expect(second).not.toBeNull();
    const walk = resumeWalk(codec, second as string, query, 5000);
    expect(walk).toEqual({ after: ['b', 'id2'], snapshotAt: 100 });
  });

  it('gives no next cursor on the last page', () => {
    expect(nextCursor(codec, query, { snapshotAt: 1 }, ['x'], false)).toBeNull();
    expect(nextCursor(codec, query, { snapshotAt: 1 }, undefined, true)).toBeNull();
  });
});

describe('queryFingerprint', () => {
  it('ignores key order, absent values and paging parameters', () => {
    expect(queryFingerprint({ a: 1, b: undefined, page: 3, limit: 10, cursor: 'x' })).toBe(queryFingerprint({ a: 1 }));
    expect(queryFingerprint({ a: 1, b: 2 })).toBe(queryFingerprint({ b: 2, a: 1 }));
    expect(queryFingerprint({ a: 1 })).not.toBe(queryFingerprint({ a: 2 }));
  });
});
