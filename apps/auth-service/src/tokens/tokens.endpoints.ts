import { MessageSchema } from '@mt/contracts';
import { defineEndpoint, reply, scope, type Endpoint } from '@mt/endpoints';
import { toTokenMetadata } from './token.response';
import { CreatedTokenSchema, CreateTokenRequestSchema, TokenIdParamsSchema, TokenListSchema } from './tokens.schemas';
import type { TokensService } from './tokens.service';

/** GET/POST /tokens, DELETE /tokens/{id}: all need the `account` scope. */
export function tokensEndpoints(tokens: TokensService): Endpoint[] {
  return [
    defineEndpoint({
      name: 'list tokens',
      method: 'GET',
      path: '/tokens',
      access: scope('account'),
      summary: 'Your active personal access tokens',
      description: 'Active (not revoked, not expired) tokens, newest first. Never includes the secret.',
      responses: { 200: { description: 'Token metadata', schema: TokenListSchema } },
      async handle({ caller }) {
        return reply.ok((await tokens.list(caller.userId)).map(toTokenMetadata));
      },
    }),
    defineEndpoint({
      name: 'create token',
      method: 'POST',
      path: '/tokens',
      access: scope('account'),
      summary: 'Create a personal access token',
      description:
        'Format `mtp_` + 32 base62 characters + 6-character base62 CRC32 checksum; only its SHA-256 is stored. `expires_in_days` 1–366 (default 90). The name must be unique among your active tokens (409, compared exactly); at most 50 active tokens (409). A PAT can only create tokens whose scopes it holds itself (403).',
      body: CreateTokenRequestSchema,
      responses: { 201: { description: 'The token, with its secret (shown only here)', schema: CreatedTokenSchema } },
      errors: [409],
      async handle({ body, caller }) {
        const { record, token } = await tokens.create(caller, body);
        return reply.created({ ...toTokenMetadata(record), token }, undefined, { 'Cache-Control': 'no-store' });
      },
    }),
    defineEndpoint({
      name: 'revoke token',
      method: 'DELETE',
      path: '/tokens/{id}',
      access: scope('account'),
      summary: 'Revoke a personal access token',
      description: "Takes effect on the very next request. 404 for an unknown id, another user's token, or a token already revoked or expired.",
      params: TokenIdParamsSchema,
      responses: { 200: { description: 'Revoked', schema: MessageSchema } },
      async handle({ params, caller }) {
        await tokens.revoke(caller.userId, params.id);
        return reply.ok({ message: 'token revoked' });
      },
    }),
  ];
}
