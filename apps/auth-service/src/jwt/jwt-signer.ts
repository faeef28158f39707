import { JWT_ALGORITHM } from '@mt/contracts';
import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import type { JwtKeySet } from './key-store';

export interface JwtSettings {
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

export interface IssuedJwt {
  accessToken: string;
  expiresIn: number;
  /** Issue time in milliseconds (`iat_ms`), what the cut-off is compared with. */
  issuedAtMs: number;
}

/** The claims the gateway verifies, besides the registered ones jsonwebtoken writes. */
export interface AccessTokenClaims {
  sub: string;
  iat: number;
  exp: number;
  jti: string;
  iss: string;
  aud: string;
  /** Whole-second `iat` cannot order a JWT against a cut-off set in the same second; this can. */
  iat_ms: number;
}

export class JwtSigner {
  constructor(
    private readonly keys: JwtKeySet,
    private readonly settings: JwtSettings,
  ) {}

  /** `notBeforeMs`: the JWT is stamped no earlier than this (a fresh cut-off must not reject it). */
  sign(userId: string, notBeforeMs = 0): IssuedJwt {
    const issuedAtMs = Math.max(Date.now(), notBeforeMs);
    const iat = Math.floor(issuedAtMs / 1000);
    const accessToken = jwt.sign({ iat, iat_ms: issuedAtMs }, this.keys.privateKey, {
      algorithm: JWT_ALGORITHM,
      keyid: this.keys.kid,
      expiresIn: this.settings.ttlSeconds,
      issuer: this.settings.issuer,
      audience: this.settings.audience,
      subject: userId,
      jwtid: randomUUID(),
    });
    return { accessToken, expiresIn: this.settings.ttlSeconds, issuedAtMs };
  }
}
