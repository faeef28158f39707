import { objectIdParam, z } from '@mt/contracts';
import { SCOPES } from '@mt/tokens';

export const MAX_ACTIVE_TOKENS = 50;
export const DEFAULT_TOKEN_DAYS = 90;
export const MAX_TOKEN_DAYS = 366;

export const ScopeSchema = z.enum(SCOPES).openapi('Scope', {
  description: 'profile:read (GET /auth/me), catalog:write, list:read, list:write, account (profile changes, password, deletion, tokens)',
});

export const CreateTokenRequestSchema = z
  .strictObject({
    name: z.string().min(1).max(100).regex(/\S/, 'must not be blank').openapi({ description: 'Unique among your active tokens', example: 'backup script' }),
    scopes: z
      .array(ScopeSchema)
      .min(1)
      .refine((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope')
      .optional()
      .openapi({ description: 'Default: every scope except account. A PAT can only create tokens with scopes it holds itself.' }),
    expires_in_days: z.number().int().min(1).max(MAX_TOKEN_DAYS).optional().openapi({ description: 'Default 90' }),
  })
  .openapi('CreateTokenRequest');

const tokenMetadataShape = {
  id: z.string(),
  name: z.string(),
  prefix: z.string().openapi({ description: 'The first 8 characters of the token, safe to display', example: 'mtp_Ab3x' }),
  scopes: z.array(ScopeSchema),
  created_at: z.string().openapi({ format: 'date-time' }),
  expires_at: z.string().openapi({ format: 'date-time' }),
  last_used_at: z.string().nullable().openapi({ format: 'date-time', description: 'May lag by up to a minute' }),
};

export const TokenMetadataSchema = z.object(tokenMetadataShape).openapi('TokenMetadata');
export type TokenMetadata = z.infer<typeof TokenMetadataSchema>;

// A flat object (not allOf over TokenMetadata), so closed-schema validators accept it.
export const CreatedTokenSchema = z
  .object({
    ...tokenMetadataShape,
    token: z.string().openapi({ description: 'The secret: shown only in this response', example: 'mtp_…' }),
  })
  .openapi('CreatedToken');

export const TokenListSchema = z.array(TokenMetadataSchema).openapi('TokenList');

export const TokenIdParamsSchema = z.strictObject({ id: objectIdParam().openapi({ description: 'Token id' }) });
