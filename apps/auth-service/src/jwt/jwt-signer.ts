import { JWT_ALGORITHM, JWT_CUTOFF_CLAIM, JWT_ROLE_CLAIM } from '@mt/contracts';
import type { Role } from '@mt/tokens';
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
  /** Issue time in milliseconds (`iat_ms`). */
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
  /** Issue time in milliseconds (informative: revocation does not depend on clocks, see `cutoff_ms`). */
  iat_ms: number;
  /**
   * The user's JWT cut-off this JWT was minted under, read together with the password hash it was checked
   * against (JWT_CUTOFF_CLAIM). The gateway rejects the JWT once the user's cut-off is later, or the user gone.
   */
  cutoff_ms: number;
}

export class JwtSigner {
  constructor(
    private readonly keys: JwtKeySet,
    private readonly settings: JwtSettings,
  ) {}

  /** `cutoffMs`: the user's cut-off as read with the credential that was checked (null: none yet). */
  sign(userId: string, cutoffMs: number | null, role: Role = 'user'): IssuedJwt {
    const issuedAtMs = Date.now();
    const iat = Math.floor(issuedAtMs / 1000);
    const accessToken = jwt.sign({ iat, iat_ms: issuedAtMs, [JWT_CUTOFF_CLAIM]: cutoffMs ?? 0, [JWT_ROLE_CLAIM]: role }, this.keys.privateKey, {
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
