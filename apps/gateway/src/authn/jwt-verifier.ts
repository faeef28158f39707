import { JWT_ALGORITHM, JWT_CUTOFF_CLAIM, JWT_ROLE_CLAIM, USER_DELETED_CUTOFF } from '@mt/contracts';
import type { Identity } from '@mt/identity';
import type { Logger } from '@mt/logging';
import { isRole, scopesForRole, type Role } from '@mt/tokens';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import type { KeyObject } from 'node:crypto';
import { AuthenticationUnavailableError, invalidCredential, type AuthOutcome } from './auth-outcome';
import type { AuthServiceClient } from './auth-service.client';
import type { JwksClient } from './jwks-client';
import type { JwtCutoffRepository, UserCutoff } from './jwt-cutoff.repository';

export interface JwtVerifierOptions {
  jwks: Pick<JwksClient, 'getKey'>;
  cutoffs: Pick<JwtCutoffRepository, 'find'>;
  authService: Pick<AuthServiceClient, 'jwtCutoff'>;
  issuer: string;
  audience: string;
  logger: Logger;
  /** Clock of the verified-JWT cache's expiry check (jsonwebtoken reads Date.now itself). */
  now?: () => number;
}

/** Verified JWTs remembered (LRU): a login JWT is ~600 bytes, so the cache holds at most a few MB. */
export const VERIFIED_JWT_CACHE_SIZE = 10_000;

interface AccessClaims {
  sub: string;
  jti: string;
  /** The user's cut-off this JWT was minted under (JWT_CUTOFF_CLAIM). */
  cutoffMs: number;
  /** JWT_ROLE_CLAIM; `user` when absent (JWTs minted before roles existed). */
  role: Role;
  /** `exp` in ms. */
  expiresAtMs: number;
}

/** A JWT whose signature, issuer and audience were verified with `key`: only expiry and revocation remain. */
interface VerifiedJwt {
  kid: string;
  key: KeyObject;
  claims: AccessClaims;
}

function readClaims(payload: unknown): AccessClaims | undefined {
  if (!payload || typeof payload !== 'object') return undefined;
  const { sub, jti, iat_ms: iatMs, exp, [JWT_CUTOFF_CLAIM]: cutoffMs, [JWT_ROLE_CLAIM]: role } = payload as Record<string, unknown>;
  if (role !== undefined && !isRole(role)) return undefined;
  if (typeof sub !== 'string' || sub === '' || typeof jti !== 'string' || jti === '') return undefined;
  if (typeof iatMs !== 'number' || !Number.isSafeInteger(iatMs)) return undefined;
  // Without it a JWT could not be revoked (JWTs signed before it existed are refused: users log in again).
  if (typeof cutoffMs !== 'number' || !Number.isSafeInteger(cutoffMs) || cutoffMs < 0) return undefined;
  // jsonwebtoken checks `exp` only when present: a token without one would never expire.
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
  return { sub, jti, cutoffMs, role: role ?? 'user', expiresAtMs: exp * 1000 };
}

/**
 * Verifies a login JWT locally: ES256 only (the algorithm is pinned, so `none` and HS256-with-the-public-key
 * fail), a key the auth service publishes, expiry, issuer, audience, and the user's credential state: a JWT
 * minted under an earlier cut-off than the user's current one (a password change since) or of a deleted user
 * is rejected. No clock is compared: the JWT carries the cut-off read with the password hash it was checked
 * against, and the change moves it in the same update. The state comes from Redis, or from the auth service
 * when Redis cannot answer. jsonwebtoken, not jose's `jwtVerify`: jose costs about twice the CPU per ES256
 * verification here (bench/README.md "Libraries judged").
 */
export class JwtVerifier {
  private readonly jwks: Pick<JwksClient, 'getKey'>;
  private readonly cutoffs: Pick<JwtCutoffRepository, 'find'>;
  private readonly authService: Pick<AuthServiceClient, 'jwtCutoff'>;
  private readonly issuer: string;
  private readonly audience: string;
  private readonly logger: Logger;
  private readonly now: () => number;
  // An ES256 verification is the gateway's costliest step, a client sends the same JWT with every request: its verified
  // claims are remembered while the key that verified them is still the one published for its kid (a refreshed
  // JWKS makes new key objects, so a rotation or removal re-verifies). Expiry and the user's cut-off are
  // checked on every use, as for a JWT seen for the first time.
  private readonly verified = new LRUCache<string, VerifiedJwt>({ max: VERIFIED_JWT_CACHE_SIZE });

  constructor({ jwks, cutoffs, authService, issuer, audience, logger, now = Date.now }: JwtVerifierOptions) {
    this.jwks = jwks;
    this.cutoffs = cutoffs;
    this.authService = authService;
    this.issuer = issuer;
    this.audience = audience;
    this.logger = logger;
    this.now = now;
  }

  async verify(token: string): Promise<AuthOutcome> {
    try {
      return await this.verifyToken(token);
    } catch (error) {
      if (error instanceof AuthenticationUnavailableError) return { kind: 'undecidable', reason: error.message };
      throw error;
    }
  }

  private async verifyToken(token: string): Promise<AuthOutcome> {
    const known = await this.remembered(token);
    if (known) return this.accept(known);
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload === 'string') return invalidCredential('not a JWT');
    if (decoded.header.alg !== JWT_ALGORITHM) return invalidCredential(`algorithm ${decoded.header.alg} refused`);
    const kid = decoded.header.kid;
    if (typeof kid !== 'string' || kid === '') return invalidCredential('JWT without key id');
    const key = await this.jwks.getKey(kid);
    if (!key) return invalidCredential('unknown key id');
    let payload: unknown;
    try {
      payload = jwt.verify(token, key, { algorithms: [JWT_ALGORITHM], issuer: this.issuer, audience: this.audience });
    } catch (error) {
      if (error instanceof jwt.TokenExpiredError) return invalidCredential('expired', 'token expired');
      return invalidCredential(`JWT rejected: ${(error as Error).message}`);
    }
    const claims = readClaims(payload);
    if (!claims) return invalidCredential(`JWT lacks sub, jti, iat_ms, ${JWT_CUTOFF_CLAIM} or exp`);
    this.verified.set(token, { kid, key, claims });
    return this.accept(claims);
  }

  /** The claims of a JWT verified before, when the key that verified it is still published; else undefined. */
  private async remembered(token: string): Promise<AccessClaims | undefined> {
    const known = this.verified.get(token);
    if (!known) return undefined;
    if ((await this.jwks.getKey(known.kid)) === known.key) return known.claims;
    this.verified.delete(token);
    return undefined;
  }

  private async accept(claims: AccessClaims): Promise<AuthOutcome> {
    if (this.now() >= claims.expiresAtMs) return invalidCredential('expired', 'token expired');
    const revoked = await this.revocationOf(claims);
    if (revoked) return invalidCredential(`JWT revoked: ${revoked}`);
    const identity: Identity = { userId: claims.sub, authType: 'jwt', scopes: scopesForRole(claims.role), tokenId: claims.jti };
    return { kind: 'authenticated', identity };
  }

  private async revocationOf(claims: AccessClaims): Promise<string | undefined> {
    const cutoff = await this.currentCutoff(claims.sub);
    if (cutoff === USER_DELETED_CUTOFF) return 'user no longer exists';
    if (cutoff !== null && claims.cutoffMs < cutoff) return 'minted before the last password change';
    return undefined;
  }

  private async currentCutoff(userId: string): Promise<UserCutoff> {
    try {
      return await this.cutoffs.find(userId);
    } catch (error) {
      this.logger.warn({ reason: (error as Error).message }, 'JWT cut-off not readable from Redis; asking the auth service');
      const answer = await this.authService.jwtCutoff(userId); // AuthenticationUnavailableError when it cannot answer
      return answer.exists ? answer.cutoff_ms : USER_DELETED_CUTOFF;
    }
  }
}
