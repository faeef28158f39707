import { JWT_ALGORITHM } from '@mt/contracts';
import type { Identity } from '@mt/identity';
import type { Logger } from '@mt/logging';
import { SCOPES } from '@mt/tokens';
import jwt from 'jsonwebtoken';
import { AuthenticationUnavailableError, invalidCredential, type AuthOutcome } from './auth-outcome';
import type { AuthServiceClient } from './auth-service.client';
import type { JwksClient } from './jwks-client';
import type { JwtCutoffRepository } from './jwt-cutoff.repository';

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
  iat_ms: number;
}

function readClaims(payload: unknown): AccessClaims | undefined {
  if (!payload || typeof payload !== 'object') return undefined;
  const { sub, jti, iat_ms: iatMs, exp } = payload as Record<string, unknown>;
  if (typeof sub !== 'string' || sub === '' || typeof jti !== 'string' || jti === '') return undefined;
  if (typeof iatMs !== 'number' || !Number.isSafeInteger(iatMs)) return undefined;
  // jsonwebtoken checks `exp` only when present: a token without one would never expire.
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
  return { sub, jti, iat_ms: iatMs };
}

/**
 * Verifies a login JWT locally: ES256 only (the algorithm is pinned, so `none` and HS256-with-the-public-key
 * fail), a key the auth service publishes, expiry, issuer, audience, and the user's cut-off (password change
 * or account deletion): `iat_ms` below it is rejected. The cut-off comes from Redis, or from the auth
 * service when Redis cannot answer.
 */
export function createJwtVerifier({ jwks, cutoffs, authService, issuer, audience, logger }: JwtVerifierOptions) {
  async function isBeforeCutoff(claims: AccessClaims): Promise<{ rejected: boolean; reason?: string }> {
    let cutoff: number | null;
    try {
      cutoff = await cutoffs.find(claims.sub);
    } catch (error) {
      logger.warn({ reason: (error as Error).message }, 'JWT cut-off not readable from Redis; asking the auth service');
      const answer = await authService.jwtCutoff(claims.sub); // AuthenticationUnavailableError when it cannot answer
      if (!answer.exists) return { rejected: true, reason: 'user no longer exists' };
      cutoff = answer.cutoff_ms;
    }
    if (cutoff !== null && claims.iat_ms < cutoff) return { rejected: true, reason: 'issued before the cut-off' };
    return { rejected: false };
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
        if (!claims) return invalidCredential('JWT lacks sub, jti, iat_ms or exp');
        const cutoff = await isBeforeCutoff(claims);
        if (cutoff.rejected) return invalidCredential(`JWT revoked: ${cutoff.reason}`);
        const identity: Identity = { userId: claims.sub, authType: 'jwt', scopes: [...SCOPES], tokenId: claims.jti };
        return { kind: 'authenticated', identity };
      } catch (error) {
        if (error instanceof AuthenticationUnavailableError) return { kind: 'undecidable', reason: error.message };
        throw error;
      }
    },
  };
}

export type JwtVerifier = ReturnType<typeof createJwtVerifier>;
