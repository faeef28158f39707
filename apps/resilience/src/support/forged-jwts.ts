import {
  createHmac,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  sign,
  type KeyObject,
} from 'node:crypto';

const b64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

export interface JwtClaims {
  sub: string;
  iss: string;
  aud: string;
  iat: number;
  iat_ms: number;
  /** The user's cut-off the JWT was minted under (0: no password change yet). */
  cutoff_ms: number;
  exp: number;
  jti: string;
  [claim: string]: unknown;
}

/** An EC P-256 key pair: the auth service's signing key is given to it (JWT_PRIVATE_KEY), so tests can sign. */
export function generateSigningKey(): { privateKey: KeyObject; privatePem: string } {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

export function es256(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  key: KeyObject,
): string {
  const input = `${b64url({ typ: 'JWT', ...header })}.${b64url(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

export function hs256(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  secret: string | Buffer,
): string {
  const input = `${b64url({ typ: 'JWT', ...header, alg: 'HS256' })}.${b64url(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

export function unsigned(header: Record<string, unknown>, claims: Record<string, unknown>): string {
  return `${b64url({ typ: 'JWT', ...header, alg: 'none' })}.${b64url(claims)}.`;
}

/** Claims the gateway accepts for `sub` (the shape the auth service issues), with overrides. */
export function claimsFor(sub: string, overrides: Partial<JwtClaims> = {}): JwtClaims {
  const nowMs = Date.now();
  return {
    iat: Math.floor(nowMs / 1000),
    iat_ms: nowMs,
    cutoff_ms: 0,
    exp: Math.floor(nowMs / 1000) + 600,
    aud: 'media-tracker-api',
    iss: 'media-tracker',
    sub,
    jti: randomUUID(),
    ...overrides,
  };
}

/** The published public key as PEM: what an attacker would use as an HS256 secret (algorithm confusion). */
export function publicPemOfJwk(jwk: Record<string, unknown>): string {
  return createPublicKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' })
    .export({ type: 'spki', format: 'pem' })
    .toString();
}

/** The same token with its signature altered (one byte of the decoded signature flipped). */
export function withBadSignature(token: string): string {
  const [header, payload, signature] = token.split('.');
  const bytes = Buffer.from(signature ?? '', 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  return `${header}.${payload}.${bytes.toString('base64url')}`;
}

/** The same signature over different claims (a payload swap). */
export function withSwappedClaims(token: string, claims: Record<string, unknown>): string {
  const [header, , signature] = token.split('.');
  return `${header}.${b64url(claims)}.${signature}`;
}
