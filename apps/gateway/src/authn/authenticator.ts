import { looksLikePat } from '@mt/tokens';
import { invalidCredential, type AuthOutcome } from './auth-outcome';
import type { JwtVerifier } from './jwt-verifier';
import type { PatVerifier } from './pat-verifier';

/** Longer than any JWT we issue or any PAT: refused before any parsing or lookup. */
const MAX_CREDENTIAL_LENGTH = 4096;
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Reads `Authorization: Bearer <credential>` and hands the credential to the PAT or the JWT verifier. */
export class Authenticator {
  constructor(private readonly verifiers: { jwt: JwtVerifier; pat: PatVerifier }) {}

  async authenticate(authorization: string | undefined): Promise<AuthOutcome> {
    if (authorization === undefined) return { kind: 'anonymous' };
    const credential = BEARER.exec(authorization)?.[1];
    if (!credential) return invalidCredential('not a Bearer credential', 'expected Authorization: Bearer <token>');
    if (credential.length > MAX_CREDENTIAL_LENGTH) return invalidCredential('credential too long');
    return looksLikePat(credential) ? this.verifiers.pat.verify(credential) : this.verifiers.jwt.verify(credential);
  }
}
