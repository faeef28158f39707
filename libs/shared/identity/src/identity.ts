import type { Scope } from '@mt/tokens';

export type AuthType = 'jwt' | 'pat';

/** Who is calling, as established by the gateway. */
export interface Identity {
  userId: string;
  authType: AuthType;
  scopes: Scope[];
  /** The PAT's id, or the JWT's `jti`. */
  tokenId: string;
}

export const IDENTITY_HEADERS = {
  userId: 'x-mt-user-id',
  authType: 'x-mt-auth-type',
  scopes: 'x-mt-scopes',
  tokenId: 'x-mt-token-id',
  issuedAt: 'x-mt-identity-ts',
  signature: 'x-mt-identity-sig',
} as const;

/** Header used by internal callers (gateway → auth introspection, instances → registry). */
export const INTERNAL_SECRET_HEADER = 'x-mt-internal-secret';
