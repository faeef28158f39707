import { MessageSchema, type z } from '@mt/contracts';
import { defineRoute } from '@mt/http';
import { requireIdentity, requireScope } from '@mt/identity';
import { parseBody } from '@mt/validation';
import { Router } from 'express';
import { AUTH_PATHS } from '../paths';
import type { AccountService } from './account.service';
import { toUserResponse } from './user.response';
import type { UsersService } from './users.service';
import {
  ChangePasswordRequestSchema,
  RegisterRequestSchema,
  UpdateProfileRequestSchema,
  type PasswordChangedSchema,
} from './users.schemas';

/** POST /register, GET/PUT/DELETE /me, PUT /password. */
export function usersRouter(users: UsersService, account: AccountService): Router {
  const router = Router();

  defineRoute(router, AUTH_PATHS.register, {
    post: async (req, res) => {
      const body = parseBody(RegisterRequestSchema, req);
      res.status(201).json(toUserResponse(await users.register(body)));
    },
  });

  defineRoute(router, AUTH_PATHS.me, {
    get: [
      requireScope('profile:read'),
      async (req, res) => {
        res.json(toUserResponse(await users.profile(requireIdentity(req).userId)));
      },
    ],
    put: [
      requireScope('account'),
      async (req, res) => {
        const body = parseBody(UpdateProfileRequestSchema, req);
        res.json(toUserResponse(await users.updateProfile(requireIdentity(req).userId, body)));
      },
    ],
    delete: [
      requireScope('account'),
      async (req, res) => {
        await account.deleteAccount(requireIdentity(req).userId);
        const body: z.infer<typeof MessageSchema> = { message: 'account deleted' };
        res.json(body);
      },
    ],
  });

  defineRoute(router, AUTH_PATHS.password, {
    put: [
      requireScope('account'),
      async (req, res) => {
        const body = parseBody(ChangePasswordRequestSchema, req);
        const jwt = await account.changePassword(requireIdentity(req).userId, body.current_password, body.new_password);
        const response: z.infer<typeof PasswordChangedSchema> = {
          message: 'password changed; tokens issued before now no longer work, personal access tokens keep working',
          access_token: jwt.accessToken,
          token_type: 'Bearer',
          expires_in: jwt.expiresIn,
        };
        res.setHeader('Cache-Control', 'no-store');
        res.json(response);
      },
    ],
  });

  return router;
}
