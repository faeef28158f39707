import { signIdentity, type Identity } from '@mt/identity';
import { SCOPES, type Scope } from '@mt/tokens';
import { randomUUID } from 'node:crypto';

export const TEST_SECRET = 'test-internal-secret-of-at-least-32-chars';

/**
 * Headers the gateway would send for this caller: the identity signed over a request id, and that
 * request id (the signature is only valid together with it).
 */
export function identityHeaders(identity: Identity, secret = TEST_SECRET): Record<string, string> {
  const requestId = `test-${randomUUID()}`;
  return { 'x-request-id': requestId, ...signIdentity(identity, requestId, secret) };
}

/** A caller authenticated with a JWT: every scope. */
export const asJwtUser = (userId: string): Record<string, string> =>
  identityHeaders({ userId, authType: 'jwt', scopes: [...SCOPES], tokenId: randomUUID() });

/** A caller authenticated with a PAT holding `scopes`. */
export const asPatUser = (userId: string, scopes: Scope[], tokenId = '0'.repeat(24)): Record<string, string> =>
  identityHeaders({ userId, authType: 'pat', scopes, tokenId });

export const internalHeaders = (secret = TEST_SECRET) => ({ 'x-mt-internal-secret': secret });
