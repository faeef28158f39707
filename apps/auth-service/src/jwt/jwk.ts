import type { Jwks } from '@mt/contracts';
import { createHash, type KeyObject } from 'node:crypto';

export type PublicJwk = Jwks['keys'][number];

/** ES256 needs an EC key on P-256 (OpenSSL's name: prime256v1). */
export function isP256Key(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
}

/**
 * RFC 7638 thumbprint: SHA-256 over the required members in lexicographic order, no whitespace.
 * Used as `kid`, so the same key always gets the same id on every instance.
 */
export function jwkThumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** The public half of a P-256 key as a JWK with its thumbprint as `kid`. */
export function publicJwkOf(key: KeyObject): PublicJwk {
  const exported = key.export({ format: 'jwk' });
  if (exported.kty !== 'EC' || exported.crv !== 'P-256' || !exported.x || !exported.y) {
    throw new Error('JWT keys must be EC P-256 keys (ES256)');
  }
  const base = { kty: 'EC' as const, crv: 'P-256' as const, x: exported.x, y: exported.y };
  return { ...base, kid: jwkThumbprint(base), alg: 'ES256', use: 'sig' };
}
