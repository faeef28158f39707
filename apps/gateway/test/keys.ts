import { createHmac, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export const TEST_SECRET = 'test-internal-secret-0123456789abcdef';
export const ISSUER = 'media-tracker';
export const AUDIENCE = 'media-tracker-api';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string; kid: string; alg: 'ES256'; use: 'sig' };
}

export function createSigningKey(kid: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { x, y } = publicKey.export({ format: 'jwk' });
  return { kid, privateKey, publicKey, jwk: { kty: 'EC', crv: 'P-256', x: x!, y: y!, kid, alg: 'ES256', use: 'sig' } };
}

export interface JwtOverrides {
  sub?: string;
  iatMs?: number;
  /** The user's cut-off the JWT was minted under (default 0: none). */
  cutoffMs?: number;
  issuer?: string;
  audience?: string;
  expiresInSeconds?: number;
  kid?: string;
  jti?: string;
  extra?: Record<string, unknown>;
}

/** A login JWT as the auth service signs it (ES256, kid, iss, aud, jti, iat_ms, cutoff_ms). */
export function signJwt(key: SigningKey, overrides: JwtOverrides = {}): string {
  const iatMs = overrides.iatMs ?? Date.now();
  return jwt.sign(
    {
      sub: overrides.sub ?? 'user-1',
      iat_ms: iatMs,
      iat: Math.floor(iatMs / 1000),
      cutoff_ms: overrides.cutoffMs ?? 0,
      ...overrides.extra,
    },
    key.privateKey,
    {
      algorithm: 'ES256',
      keyid: overrides.kid ?? key.kid,
      issuer: overrides.issuer ?? ISSUER,
      audience: overrides.audience ?? AUDIENCE,
      expiresIn: overrides.expiresInSeconds ?? 3600,
      jwtid: overrides.jti ?? randomUUID(),
    },
  );
}

const b64url = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** Hand-made tokens for the attacks jsonwebtoken would refuse to produce. */
export function forgeJwt(header: Record<string, unknown>, payload: Record<string, unknown>, hmacSecret?: string | Buffer): string {
  const signingInput = `${b64url(header)}.${b64url(payload)}`;
  const signature = hmacSecret === undefined ? '' : createHmac('sha256', hmacSecret).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}

export const standardClaims = (sub = 'user-1') => {
  const now = Date.now();
  return {
    sub,
    iat: Math.floor(now / 1000),
    iat_ms: now,
    cutoff_ms: 0,
    exp: Math.floor(now / 1000) + 3600,
    iss: ISSUER,
    aud: AUDIENCE,
    jti: randomUUID(),
  };
};
