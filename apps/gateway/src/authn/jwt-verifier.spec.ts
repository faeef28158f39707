import { JWT_ALGORITHM, JWT_CUTOFF_CLAIM, JWT_ROLE_CLAIM, USER_DELETED_CUTOFF } from '@mt/contracts';
import { silentLogger } from '@mt/testing';
import jwt from 'jsonwebtoken';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { UserCutoff } from './jwt-cutoff.repository';
import { JwtVerifier, type JwtVerifierOptions } from './jwt-verifier';

const ISSUER = 'media-tracker';
const AUDIENCE = 'media-tracker-api';
const newKey = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });

/** A verifier over keys and cut-offs the test changes between calls, counting the signature checks it makes. */
function setUp() {
  const signing = newKey();
  const published = new Map<string, KeyObject>([['k1', signing.publicKey]]);
  const cutoffs = new Map<string, UserCutoff>();
  const jwks: JwtVerifierOptions['jwks'] = { getKey: async (kid) => published.get(kid) };
  const clock = { now: Date.now() };
  const verifier = new JwtVerifier({
    jwks,
    cutoffs: { find: async (userId) => cutoffs.get(userId) ?? null },
    authService: { jwtCutoff: async () => ({ exists: true, cutoff_ms: null }) },
    issuer: ISSUER,
    audience: AUDIENCE,
    logger: silentLogger(),
    now: () => clock.now,
  });
  const sign = (claims: { sub?: string; cutoff?: number; expiresInS?: number } = {}) =>
    jwt.sign(
      { jti: 'j1', iat_ms: clock.now, [JWT_CUTOFF_CLAIM]: claims.cutoff ?? 0, [JWT_ROLE_CLAIM]: 'user' },
      signing.privateKey,
      {
        algorithm: JWT_ALGORITHM,
        keyid: 'k1',
        subject: claims.sub ?? 'u1',
        issuer: ISSUER,
        audience: AUDIENCE,
        expiresIn: claims.expiresInS ?? 900,
      },
    );
  const signatureChecks = jest.spyOn(jwt, 'verify');
  return { verifier, published, cutoffs, clock, sign, signatureChecks };
}

afterEach(() => jest.restoreAllMocks());

describe('JWT verifier', () => {
  it('checks a JWT signature once and answers its later uses from the verified cache', async () => {
    const { verifier, sign, signatureChecks } = setUp();
    const token = sign();
    for (let use = 0; use < 3; use++) {
      await expect(verifier.verify(token)).resolves.toMatchObject({ kind: 'authenticated', identity: { userId: 'u1', authType: 'jwt' } });
    }
    expect(signatureChecks).toHaveBeenCalledTimes(1);
  });

  it('rejects a cached JWT minted before a password change made after it was first verified', async () => {
    const { verifier, cutoffs, clock, sign } = setUp();
    const token = sign({ cutoff: clock.now - 1000 });
    await expect(verifier.verify(token)).resolves.toMatchObject({ kind: 'authenticated' });
    cutoffs.set('u1', clock.now);
    await expect(verifier.verify(token)).resolves.toMatchObject({ kind: 'invalid', reason: 'JWT revoked: minted before the last password change' });
    cutoffs.set('u1', USER_DELETED_CUTOFF);
    await expect(verifier.verify(token)).resolves.toMatchObject({ kind: 'invalid', reason: 'JWT revoked: user no longer exists' });
  });

  it('rejects a cached JWT once it has expired, with the expiry message', async () => {
    const { verifier, clock, sign } = setUp();
    const token = sign({ expiresInS: 60 });
    await expect(verifier.verify(token)).resolves.toMatchObject({ kind: 'authenticated' });
    clock.now += 61_000;
    await expect(verifier.verify(token)).resolves.toEqual({ kind: 'invalid', reason: 'expired', publicMessage: 'token expired' });
  });

  it('checks a cached JWT again when its key is replaced or no longer published', async () => {
    const { verifier, published, sign, signatureChecks } = setUp();
    const token = sign();
    await expect(verifier.verify(token)).resolves.toMatchObject({ kind: 'authenticated' });
    published.set('k1', newKey().publicKey); // same kid, another key: the JWT's signature no longer holds
    await expect(verifier.verify(token)).resolves.toMatchObject({ kind: 'invalid', reason: 'JWT rejected: invalid signature' });
    published.delete('k1');
    await expect(verifier.verify(token)).resolves.toMatchObject({ kind: 'invalid', reason: 'unknown key id' });
    expect(signatureChecks).toHaveBeenCalledTimes(2);
  });

  it('never remembers a JWT that failed verification', async () => {
    const { verifier, sign, signatureChecks } = setUp();
    const forged = `${sign().slice(0, -4)}AAAA`;
    for (let use = 0; use < 2; use++) {
      await expect(verifier.verify(forged)).resolves.toMatchObject({ kind: 'invalid' });
    }
    expect(signatureChecks).toHaveBeenCalledTimes(2);
  });
});
