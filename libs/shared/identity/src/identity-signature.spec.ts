import { IDENTITY_HEADERS, type Identity } from './identity';
import { IDENTITY_MAX_AGE_MS, hasIdentityHeaders, secretsEqual, signIdentity, stripIdentityHeaders, verifyIdentity } from './identity-signature';

const SECRET = 'k'.repeat(32);
const identity: Identity = { userId: '65f0c0ffee65f0c0ffee65f0', authType: 'pat', scopes: ['list:read', 'list:write'], tokenId: 'tok-1' };
const NOW = 1_800_000_000_000;

describe('signed identity headers', () => {
  it('round-trip: what the gateway signs, a service verifies', () => {
    const headers = signIdentity(identity, 'req-1', SECRET, NOW);
    expect(verifyIdentity(headers, 'req-1', SECRET, NOW + 1000)).toEqual({ ok: true, identity });
  });

  it('carries a JWT identity with every scope and an empty scope list alike', () => {
    const jwt: Identity = { ...identity, authType: 'jwt', scopes: [] };
    expect(verifyIdentity(signIdentity(jwt, 'r', SECRET, NOW), 'r', SECRET, NOW)).toEqual({ ok: true, identity: jwt });
  });

  it.each([
    ['user id', IDENTITY_HEADERS.userId, '65f0c0ffee65f0c0ffee65f1'],
    ['auth type', IDENTITY_HEADERS.authType, 'jwt'],
    ['scopes', IDENTITY_HEADERS.scopes, 'list:read list:write account'],
    ['token id', IDENTITY_HEADERS.tokenId, 'tok-2'],
    ['timestamp', IDENTITY_HEADERS.issuedAt, String(NOW + 1)],
  ])('rejects a tampered %s', (_what, header, value) => {
    const headers = { ...signIdentity(identity, 'req-1', SECRET, NOW), [header]: value };
    expect(verifyIdentity(headers, 'req-1', SECRET, NOW)).toEqual({ ok: false, reason: 'bad identity signature' });
  });

  it('rejects a signature made for another request id (no replay onto another request)', () => {
    expect(verifyIdentity(signIdentity(identity, 'req-1', SECRET, NOW), 'req-2', SECRET, NOW)).toMatchObject({ ok: false });
  });

  it('rejects a signature made with another secret, or a forged one', () => {
    expect(verifyIdentity(signIdentity(identity, 'r', 'x'.repeat(32), NOW), 'r', SECRET, NOW)).toMatchObject({ ok: false });
    const forged = { ...signIdentity(identity, 'r', SECRET, NOW), [IDENTITY_HEADERS.signature]: 'AAAA' };
    expect(verifyIdentity(forged, 'r', SECRET, NOW)).toEqual({ ok: false, reason: 'bad identity signature' });
  });

  it('rejects a stale or future-dated signature', () => {
    const headers = signIdentity(identity, 'r', SECRET, NOW);
    expect(verifyIdentity(headers, 'r', SECRET, NOW + IDENTITY_MAX_AGE_MS)).toMatchObject({ ok: true });
    expect(verifyIdentity(headers, 'r', SECRET, NOW + IDENTITY_MAX_AGE_MS + 1)).toEqual({ ok: false, reason: 'stale identity signature' });
    expect(verifyIdentity(headers, 'r', SECRET, NOW - IDENTITY_MAX_AGE_MS - 1)).toEqual({ ok: false, reason: 'stale identity signature' });
  });

  it('rejects incomplete headers, an unknown auth type, a malformed timestamp and unknown scopes', () => {
    const signed = signIdentity(identity, 'r', SECRET, NOW);
    const without = { ...signed };
    delete without[IDENTITY_HEADERS.signature];
    expect(verifyIdentity(without, 'r', SECRET, NOW)).toEqual({ ok: false, reason: 'incomplete identity headers' });
    expect(verifyIdentity({ ...signed, [IDENTITY_HEADERS.authType]: 'root' }, 'r', SECRET, NOW)).toEqual({ ok: false, reason: 'unknown auth type' });
    expect(verifyIdentity({ ...signed, [IDENTITY_HEADERS.issuedAt]: '1e12' }, 'r', SECRET, NOW)).toEqual({ ok: false, reason: 'stale identity signature' });
    const widened = signIdentity({ ...identity, scopes: ['admin' as never] }, 'r', SECRET, NOW);
    expect(verifyIdentity(widened, 'r', SECRET, NOW)).toEqual({ ok: false, reason: 'unknown scope' });
  });

  it('ignores repeated headers (arrays) instead of trusting one of them', () => {
    const signed = signIdentity(identity, 'r', SECRET, NOW);
    expect(verifyIdentity({ ...signed, [IDENTITY_HEADERS.userId]: [identity.userId, 'other'] }, 'r', SECRET, NOW)).toMatchObject({ ok: false });
  });

  it('detects and strips every identity header a client sent', () => {
    const headers: Record<string, string | undefined> = { ...signIdentity(identity, 'r', SECRET, NOW), accept: 'application/json' };
    expect(hasIdentityHeaders(headers)).toBe(true);
    stripIdentityHeaders(headers);
    expect(headers).toEqual({ accept: 'application/json' });
    expect(hasIdentityHeaders(headers)).toBe(false);
  });
});

describe('secretsEqual', () => {
  it('compares secrets of any length', () => {
    expect(secretsEqual(SECRET, SECRET)).toBe(true);
    expect(secretsEqual(`${SECRET}x`, SECRET)).toBe(false);
    expect(secretsEqual('', SECRET)).toBe(false);
    expect(secretsEqual(undefined, SECRET)).toBe(false);
  });
});
