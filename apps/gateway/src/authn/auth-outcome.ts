import type { Identity } from '@mt/identity';

/**
 * The result of looking at a request's credential:
 * - `anonymous`: none was sent;
 * - `authenticated`: a valid JWT or PAT;
 * - `invalid`: malformed, expired, revoked, wrongly signed... → 401 (also on public endpoints);
 * - `undecidable`: the auth service and the cache could not answer → 503 on protected endpoints.
 */
export type AuthOutcome =
  | { kind: 'anonymous' }
  | { kind: 'authenticated'; identity: Identity }
  | { kind: 'invalid'; reason: string; publicMessage: string }
  | { kind: 'undecidable'; reason: string };

export const invalidCredential = (reason: string, publicMessage = 'invalid token'): AuthOutcome => ({
  kind: 'invalid',
  reason,
  publicMessage,
});

/** Thrown when neither the auth service nor the cache can decide; the caller turns it into `undecidable`. */
export class AuthenticationUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthenticationUnavailableError';
  }
}
