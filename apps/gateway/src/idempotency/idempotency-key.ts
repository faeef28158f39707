import { errors } from '@mt/errors';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** 1–255 visible ASCII characters (RFC 5234 VCHAR). */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The key of an `Idempotency-Key` header, or undefined when there is none. The draft writes it as a
 * Structured Field string (`"8e03978e-…"`); a bare value is accepted too, and both mean the same key.
 * Anything else (empty, longer than 255, spaces or other invisible characters, the header twice) is a 400.
 */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const raw = Array.isArray(header) ? header.join(', ') : header.trim();
  const quoted = /^"([^"\\]*)"$/.exec(raw);
  const key = quoted?.[1] ?? raw;
  if (!VALID_KEY.test(key)) {
    const message = 'must be 1–255 visible ASCII characters (no spaces), sent once';
    throw errors.validation('invalid Idempotency-Key header', [{ path: 'Idempotency-Key', message }]);
  }
  return key;
}
