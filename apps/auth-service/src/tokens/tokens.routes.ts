import { MessageSchema, type z } from '@mt/contracts';
import { defineRoute } from '@mt/http';
import { requireIdentity, requireScope } from '@mt/identity';
import { parseBody, parseObjectId } from '@mt/validation';
import { Router } from 'express';
import { AUTH_PATHS } from '../paths';
import { toTokenMetadata } from './token.response';
import { CreateTokenRequestSchema, type CreatedTokenSchema } from './tokens.schemas';
import type { TokensService } from './tokens.service';

/** GET/POST /tokens, DELETE /tokens/{id}: all need the `account` scope. */
export function tokensRouter(tokens: TokensService): Router {
  const router = Router();

  defineRoute(router, AUTH_PATHS.tokens, {
    get: [
      requireScope('account'),
      async (req, res) => {
        const list = await tokens.list(requireIdentity(req).userId);
        res.json(list.map(toTokenMetadata));
      },
    ],
    post: [
      requireScope('account'),
      async (req, res) => {
        const body = parseBody(CreateTokenRequestSchema, req);
        const { record, token } = await tokens.create(requireIdentity(req), body);
        const response: z.infer<typeof CreatedTokenSchema> = { ...toTokenMetadata(record), token };
        res.setHeader('Cache-Control', 'no-store');
        res.status(201).json(response);
      },
    ],
  });

  defineRoute(router, AUTH_PATHS.token, {
    delete: [
      requireScope('account'),
      async (req, res) => {
        const tokenId = parseObjectId(req.params['id'], 'id');
        await tokens.revoke(requireIdentity(req).userId, tokenId);
        const body: z.infer<typeof MessageSchema> = { message: 'token revoked' };
        res.json(body);
      },
    ],
  });

  return router;
}
