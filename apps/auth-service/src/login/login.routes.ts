import type { z } from '@mt/contracts';
import { defineRoute } from '@mt/http';
import { parseBody } from '@mt/validation';
import { Router } from 'express';
import { AUTH_PATHS } from '../paths';
import { toUserResponse } from '../users/user.response';
import { LoginRequestSchema, type LoginResponseSchema } from './login.schemas';
import type { LoginService } from './login.service';

export function loginRouter(login: LoginService): Router {
  const router = Router();
  defineRoute(router, AUTH_PATHS.login, {
    post: async (req, res) => {
      const body = parseBody(LoginRequestSchema, req);
      const { jwt, user } = await login.login(body.username, body.password);
      const response: z.infer<typeof LoginResponseSchema> = {
        access_token: jwt.accessToken,
        token_type: 'Bearer',
        expires_in: jwt.expiresIn,
        user: toUserResponse(user),
      };
      res.setHeader('Cache-Control', 'no-store');
      res.json(response);
    },
  });
  return router;
}
