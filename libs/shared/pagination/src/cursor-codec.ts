import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { errors } from '@mt/errors';
import { queryFingerprint } from './query-fingerprint';

/** How long a cursor is accepted after it was issued (docs/api.md "Conventions" promises at least 24 hours). */
export const CURSOR_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Instances' clocks differ a little: a cursor issued up to this far "in the future" is still accepted. */
export const CURSOR_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** Longest cursor string accepted; anything longer is refused before any decoding work. */
export const MAX_CURSOR_LENGTH = 4096;

const MAC_BYTES = 16;
const FORMAT_VERSION = 1;

/** A JSON value: what a position (the sort key of the last entry served) may be made of. */
export type CursorPosition = string | number | boolean | null | CursorPosition[] | { [key: string]: CursorPosition };

export interface CursorState {
  /** Where the next page starts: the sort values (and id) of the last entry served; the caller defines the shape. */
  after: CursorPosition;
  /**
   * When the walk started (ms since epoch), carried unchanged from page to page. Pages after the first skip
   * entries changed after it, so an entry that moves while a client pages is seen at most once.
   */
  snapshotAt: number;
}

export interface DecodedCursor extends CursorState {
  /** When this cursor was issued (ms since epoch). */
  issuedAt: number;
}

export interface CursorCodecOptions {
  /** Key material shared by every instance (e.g. INTERNAL_SECRET); a cursor from one instance is valid on all. */
  secret: string | Buffer;
  maxAgeMs?: number;
  now?: () => number;
}

interface Payload {
  v: number;
  f: string;
  i: number;
  s: number;
  a: CursorPosition;
}

/** A key used only for cursors, derived from the deployment's shared secret (never the secret itself). */
export function deriveCursorKey(secret: string | Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'media-tracker', 'pagination-cursor-v1', 32));
}

const invalid = (message: string) => errors.validation('invalid cursor', [{ path: 'cursor', message }]);

/**
 * Opaque, tamper-proof page cursors: base64url of an HMAC-SHA256 tag (16 bytes) followed by a small JSON payload
 * (format version, query fingerprint, issued-at, snapshot time, position). Readable by anyone who decodes it,
 * but any change invalidates it; it carries nothing secret.
 */
export class CursorCodec {
  private readonly key: Buffer;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(options: CursorCodecOptions) {
    this.key = deriveCursorKey(options.secret);
    this.maxAgeMs = options.maxAgeMs ?? CURSOR_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
  }

  /** A cursor for the page after `state.after`, bound to `query` (see `queryFingerprint`). */
  encode(query: Record<string, unknown>, state: CursorState): string {
    const payload: Payload = { v: FORMAT_VERSION, f: queryFingerprint(query), i: this.now(), s: state.snapshotAt, a: state.after };
    const body = Buffer.from(JSON.stringify(payload), 'utf8');
    return Buffer.concat([this.tag(body), body]).toString('base64url');
  }

  /** The state of a cursor issued for this same query; a 400 (`validation_failed`, path `cursor`) otherwise. */
  decode(cursor: string, query: Record<string, unknown>): DecodedCursor {
    if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid('is not a cursor issued by this API');
    const raw = Buffer.from(cursor, 'base64url');
    if (raw.length <= MAC_BYTES) throw invalid('is not a cursor issued by this API');
    const body = raw.subarray(MAC_BYTES);
    if (!timingSafeEqual(raw.subarray(0, MAC_BYTES), this.tag(body))) throw invalid('is not a cursor issued by this API');
    let payload: Payload;
    try {
      payload = JSON.parse(body.toString('utf8')) as Payload;
    } catch {
      throw invalid('is not a cursor issued by this API');
    }
    if (payload.v !== FORMAT_VERSION || typeof payload.i !== 'number' || typeof payload.s !== 'number') {
      throw invalid('comes from another version of this API; start again with cursor=start');
    }
    if (payload.f !== queryFingerprint(query)) {
      throw invalid('belongs to another query (filters, sort and order must stay the same); start again with cursor=start');
    }
    const age = this.now() - payload.i;
    if (age > this.maxAgeMs || age < -CURSOR_CLOCK_SKEW_MS) throw invalid('has expired; start again with cursor=start');
    return { after: payload.a, snapshotAt: payload.s, issuedAt: payload.i };
  }

  private tag(body: Buffer): Buffer {
    return createHmac('sha256', this.key).update(body).digest().subarray(0, MAC_BYTES);
  }
}
