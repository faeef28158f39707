import { signIdentity, type Identity } from '@mt/identity';
import { SCOPES, type Scope } from '@mt/tokens';
import { randomBytes, randomUUID } from 'node:crypto';

export const TEST_SECRET = 'catalog-test-internal-secret-0123456789';

/** What the gateway sends for this caller: the identity signed over the request id, and that request id. */
export function identityHeaders(identity: Identity, secret = TEST_SECRET): Record<string, string> {
  const requestId = `test-${randomUUID()}`;
  return { 'x-request-id': requestId, ...signIdentity(identity, requestId, secret) };
}

/** A caller with a JWT (every scope), or a PAT holding `scopes`. */
export const asUser = (userId: string, scopes: readonly Scope[] = SCOPES): Record<string, string> =>
  identityHeaders({ userId, authType: scopes.length === SCOPES.length ? 'jwt' : 'pat', scopes: [...scopes], tokenId: randomUUID() });

/** A fresh user id, shaped like the auth service's (ObjectId hex). */
export const newUserId = (): string => randomBytes(12).toString('hex');
