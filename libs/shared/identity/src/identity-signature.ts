import { createHmac, timingSafeEqual } from 'node:crypto';
import { isScope } from '@mt/tokens';
import { IDENTITY_HEADERS, type AuthType, type Identity } from './identity';

type Headers = Record<string, string | string[] | undefined>;

/** A signature older than this is refused, so a captured header set cannot be replayed for long. */
export const IDENTITY_MAX_AGE_MS = 60_000;

const signaturePayload = (identity: Identity, requestId: string, issuedAt: string): string =>
  [identity.userId, identity.authType, identity.scopes.join(' '), identity.tokenId, requestId, issuedAt].join('\n');

const hmac = (secret: string, payload: string): Buffer => createHmac('sha256', secret).update(payload).digest();

/** Gateway side: the headers that carry the caller's identity, signed over identity + request id. */
export function signIdentity(identity: Identity, requestId: string, secret: string, now = Date.now()): Record<string, string> {
  const issuedAt = String(now);
  return {
    [IDENTITY_HEADERS.userId]: identity.userId,
    [IDENTITY_HEADERS.authType]: identity.authType,
    [IDENTITY_HEADERS.scopes]: identity.scopes.join(' '),
    [IDENTITY_HEADERS.tokenId]: identity.tokenId,
    [IDENTITY_HEADERS.issuedAt]: issuedAt,
    [IDENTITY_HEADERS.signature]: hmac(secret, signaturePayload(identity, requestId, issuedAt)).toString('base64url'),
  };
}

export const hasIdentityHeaders = (headers: Headers): boolean =>
  Object.values(IDENTITY_HEADERS).some((name) => headers[name] !== undefined);

/** Removes every identity header (the gateway does this to whatever a client sent). */
export function stripIdentityHeaders(headers: Headers): void {
  for (const name of Object.values(IDENTITY_HEADERS)) delete headers[name];
}

export type IdentityCheck = { ok: true; identity: Identity } | { ok: false; reason: string };

/** Service side: accepts the identity only with a valid, fresh signature (compared in constant time). */
export function verifyIdentity(headers: Headers, requestId: string, secret: string, now = Date.now()): IdentityCheck {
  const read = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const userId = read(IDENTITY_HEADERS.userId);
  const authType = read(IDENTITY_HEADERS.authType);
  const scopesText = read(IDENTITY_HEADERS.scopes);
  const tokenId = read(IDENTITY_HEADERS.tokenId);
  const issuedAt = read(IDENTITY_HEADERS.issuedAt);
  const signature = read(IDENTITY_HEADERS.signature);
  if (!userId || !authType || scopesText === undefined || !tokenId || !issuedAt || !signature) {
    return { ok: false, reason: 'incomplete identity headers' };
  }
  if (authType !== 'jwt' && authType !== 'pat') return { ok: false, reason: 'unknown auth type' };
  const age = now - Number(issuedAt);
  if (!/^\d{1,15}$/.test(issuedAt) || age > IDENTITY_MAX_AGE_MS || age < -IDENTITY_MAX_AGE_MS) {
    return { ok: false, reason: 'stale identity signature' };
  }
  const scopes = scopesText.split(' ').filter(Boolean);
  if (!scopes.every(isScope)) return { ok: false, reason: 'unknown scope' };
  const identity: Identity = { userId, authType: authType as AuthType, scopes, tokenId };
  const expected = hmac(secret, signaturePayload(identity, requestId, issuedAt));
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad identity signature' };
  }
  return { ok: true, identity };
}

/** Constant-time comparison of two secrets of possibly different length. */
export function secretsEqual(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = createHmac('sha256', 'compare').update(given).digest();
  const b = createHmac('sha256', 'compare').update(expected).digest();
  return timingSafeEqual(a, b);
}
