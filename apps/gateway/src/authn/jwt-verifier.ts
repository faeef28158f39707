import { JWT_ALGORITHM, JWT_CUTOFF_CLAIM, JWT_ROLE_CLAIM, USER_DELETED_CUTOFF } from '@mt/contracts';
import type { Identity } from '@mt/identity';
import type { Logger } from '@mt/logging';
import { isRole, scopesForRole, type Role } from '@mt/tokens';
import jwt from 'jsonwebtoken';
import { AuthenticationUnavailableError, invalidCredential, type AuthOutcome } from './auth-outcome';
import type { AuthServiceClient } from './auth-service.client';
import type { JwksClient } from './jwks-client';
import type { JwtCutoffRepository, UserCutoff } from './jwt-cutoff.repository';

export interface JwtVerifierOptions {
  jwks: JwksClient;
  cutoffs: JwtCutoffRepository;
  authService: Pick<AuthServiceClient, 'jwtCutoff'>;
  issuer: string;
  audience: string;
  logger: Logger;
}

interface AccessClaims {
  sub: string;
  jti: string;
  /** The user's cut-off this JWT was minted under (JWT_CUTOFF_CLAIM). */
  cutoffMs: number;
  /** JWT_ROLE_CLAIM; `user` when absent (JWTs minted before roles existed). */
  role: Role;
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
  return { sub, jti, cutoffMs, role: role ?? 'user' };
}

/**
 * Verifies a login JWT locally: ES256 only (the algorithm is pinned, so `none` and HS256-with-the-public-key
 * fail), a key the auth service publishes, expiry, issuer, audience, and the user's credential state: a JWT
 * minted under an earlier cut-off than the user's current one (a password change since) or of a deleted user
 * is rejected. No clock is compared: the JWT carries the cut-off read with the password hash it was checked
 * against, and the change moves it in the same update. The state comes from Redis, or from the auth service
 * when Redis cannot answer. jsonwebtoken, not jose's `jwtVerify`: jose costs about twice the CPU per ES256
 * verification here (161–164 against 83–104 µs, bench/README.md "Libraries judged").
 */
export function createJwtVerifier({ jwks, cutoffs, authService, issuer, audience, logger }: JwtVerifierOptions) {
  async function currentCutoff(userId: string): Promise<UserCutoff> {
    try {
      return await cutoffs.find(userId);
    } catch (error) {
      logger.warn({ reason: (error as Error).message }, 'JWT cut-off not readable from Redis; asking the auth service');
      const answer = await authService.jwtCutoff(userId); // AuthenticationUnavailableError when it cannot answer
      return answer.exists ? answer.cutoff_ms : USER_DELETED_CUTOFF;
    }
  }

  async function revocationOf(claims: AccessClaims): Promise<string | undefined> {
    const cutoff = await currentCutoff(claims.sub);
    if (cutoff === USER_DELETED_CUTOFF) return 'user no longer exists';
    if (cutoff !== null && claims.cutoffMs < cutoff) return 'minted before the last password change';
    return undefined;
  }

  return {
    async verify(token: string): Promise<AuthOutcome> {
      const decoded = jwt.decode(token, { complete: true });
      if (!decoded || typeof decoded.payload === 'string') return invalidCredential('not a JWT');
      if (decoded.header.alg !== JWT_ALGORITHM) return invalidCredential(`algorithm ${decoded.header.alg} refused`);
      const kid = decoded.header.kid;
      if (typeof kid !== 'string' || kid === '') return invalidCredential('JWT without key id');

      try {
        const key = await jwks.getKey(kid);
        if (!key) return invalidCredential('unknown key id');
        let payload: unknown;
        try {
          payload = jwt.verify(token, key, { algorithms: [JWT_ALGORITHM], issuer, audience });
        } catch (error) {
          if (error instanceof jwt.TokenExpiredError) return invalidCredential('expired', 'token expired');
          return invalidCredential(`JWT rejected: ${(error as Error).message}`);
        }
        const claims = readClaims(payload);
        if (!claims) return invalidCredential(`JWT lacks sub, jti, iat_ms, ${JWT_CUTOFF_CLAIM} or exp`);
        const revoked = await revocationOf(claims);
        if (revoked) return invalidCredential(`JWT revoked: ${revoked}`);
        const identity: Identity = { userId: claims.sub, authType: 'jwt', scopes: scopesForRole(claims.role), tokenId: claims.jti };
        return { kind: 'authenticated', identity };
      } catch (error) {
        if (error instanceof AuthenticationUnavailableError) return { kind: 'undecidable', reason: error.message };
        throw error;
      }
    },
  };
}

export type JwtVerifier = ReturnType<typeof createJwtVerifier>;
