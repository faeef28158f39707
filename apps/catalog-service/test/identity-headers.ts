import { signIdentity, type Identity } from '@mt/identity';
import { SCOPES, scopesForRole, type Scope } from '@mt/tokens';
import { randomBytes, randomUUID } from 'node:crypto';

export const TEST_SECRET = 'catalog-test-internal-secret-0123456789';

/** What the gateway sends for this caller: the identity signed over the request id, and that request id. */
export function identityHeaders(identity: Identity, secret = TEST_SECRET): Record<string, string> {
  const requestId = `test-${randomUUID()}`;
  return { 'x-request-id': requestId, ...signIdentity(identity, requestId, secret) };
}

/** The scopes of a plain user's JWT (every scope but catalog:moderate). */
export const USER_JWT_SCOPES: readonly Scope[] = scopesForRole('user');

/** A caller with a plain user's JWT, or a PAT holding `scopes`. */
export const asUser = (userId: string, scopes: readonly Scope[] = USER_JWT_SCOPES): Record<string, string> =>
  identityHeaders({ userId, authType: scopes === USER_JWT_SCOPES ? 'jwt' : 'pat', scopes: [...scopes], tokenId: randomUUID() });

/** A moderator's JWT (docs/api.md "Authentication"): every scope, catalog:moderate included. */
export const asModerator = (userId: string): Record<string, string> =>
  identityHeaders({ userId, authType: 'jwt', scopes: [...SCOPES], tokenId: randomUUID() });

/** A fresh user id, shaped like the auth service's (ObjectId hex). */
export const newUserId = (): string => randomBytes(12).toString('hex');
