import { looksLikePat } from '@mt/tokens';
import { invalidCredential, type AuthOutcome } from './auth-outcome';
import type { JwtVerifier } from './jwt-verifier';
import type { PatVerifier } from './pat-verifier';

/** Longer than any JWT we issue or any PAT: refused before any parsing or lookup. */
const MAX_CREDENTIAL_LENGTH = 4096;
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<AuthOutcome>;
}

/** Reads `Authorization: Bearer <credential>` and hands the credential to the PAT or the JWT verifier. */
export function createAuthenticator(verifiers: { jwt: JwtVerifier; pat: PatVerifier }): Authenticator {
  return {
    async authenticate(authorization) {
      if (authorization === undefined) return { kind: 'anonymous' };
      const credential = BEARER.exec(authorization)?.[1];
      if (!credential) return invalidCredential('not a Bearer credential', 'expected Authorization: Bearer <token>');
      if (credential.length > MAX_CREDENTIAL_LENGTH) return invalidCredential('credential too long');
      return looksLikePat(credential) ? verifiers.pat.verify(credential) : verifiers.jwt.verify(credential);
    },
  };
}
