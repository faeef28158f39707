import type { TokenRecord } from './tokens.repository';
import type { TokenMetadata } from './tokens.schemas';

/** Token metadata: never the token, never its hash. */
export const toTokenMetadata = (token: TokenRecord): TokenMetadata => ({
  id: token.id,
  name: token.name,
  prefix: token.prefix,
  scopes: token.scopes,
  created_at: token.createdAt.toISOString(),
  expires_at: token.expiresAt.toISOString(),
  last_used_at: token.lastUsedAt?.toISOString() ?? null,
});
