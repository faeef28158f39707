import { MessageSchema } from '@mt/contracts';
import { defineEndpoint, PUBLIC, reply, scope, type Endpoint } from '@mt/endpoints';
import type { AccountService } from './account.service';
import { toUserResponse } from './user.response';
import { ChangePasswordRequestSchema, PasswordChangedSchema, RegisterRequestSchema, UpdateProfileRequestSchema, UserSchema } from './users.schemas';
import type { UsersService } from './users.service';

/** POST /register, GET/PUT/DELETE /me, PUT /password. */
export function usersEndpoints(users: UsersService, account: AccountService): Endpoint[] {
  return [
    defineEndpoint({
      name: 'register',
      method: 'POST',
      path: '/register',
      access: PUBLIC,
      summary: 'Create an account',
      description:
        'Username and email are unique case-insensitively (409). The first registration under a name listed in ADMIN_USERNAMES makes an admin; a listed name once claimed is reserved to its account, even after a deletion (409).',
      body: RegisterRequestSchema,
      responses: { 201: { description: 'The new user', schema: UserSchema } },
      errors: [409],
      async handle({ body }) {
        return reply.created(toUserResponse(await users.register(body)));
      },
    }),
    defineEndpoint({
      name: 'get me',
      method: 'GET',
      path: '/me',
      access: scope('profile:read'),
      summary: 'Your profile',
      responses: { 200: { description: 'The user', schema: UserSchema } },
      async handle({ caller }) {
        return reply.ok(toUserResponse(await users.profile(caller.userId)));
      },
    }),
    defineEndpoint({
      name: 'update me',
      method: 'PUT',
      path: '/me',
      access: scope('account'),
      summary: 'Change your username and/or email',
      description:
        'Username and email are unique case-insensitively (409). A name listed in ADMIN_USERNAMES or claimed by an admin is reserved: only the admin that claimed it may take it (409 otherwise).',
      body: UpdateProfileRequestSchema,
      responses: { 200: { description: 'The updated user', schema: UserSchema } },
      errors: [409],
      async handle({ body, caller }) {
        return reply.ok(toUserResponse(await users.updateProfile(caller.userId, body)));
      },
    }),
    defineEndpoint({
      name: 'delete me',
      method: 'DELETE',
      path: '/me',
      access: scope('account'),
      summary: 'Delete your account',
      description:
        "Removes the user and every token at once (all their JWTs and PATs stop working), frees the username and email, and removes the user's lists in every category (asynchronously, at least once). Catalog entries the user created remain with `created_by: null`.",
      responses: { 200: { description: 'Deleted', schema: MessageSchema } },
      async handle({ caller }) {
        await account.deleteAccount(caller.userId);
        return reply.ok({ message: 'account deleted' });
      },
    }),
    defineEndpoint({
      name: 'change password',
      method: 'PUT',
      path: '/password',
      access: scope('account'),
      summary: 'Change your password',
      description:
        'A wrong current password is a 403. Returns a new JWT; every JWT issued before the change (even in the same second) is rejected from now on. Personal access tokens keep working.',
      body: ChangePasswordRequestSchema,
      responses: { 200: { description: 'Changed, with a new JWT', schema: PasswordChangedSchema } },
      async handle({ body, caller }) {
        const jwt = await account.changePassword(caller.userId, body.current_password, body.new_password);
        return reply.ok(
          {
            message: 'password changed; tokens issued before now no longer work, personal access tokens keep working',
            access_token: jwt.accessToken,
            token_type: 'Bearer',
            expires_in: jwt.expiresIn,
          },
          { 'Cache-Control': 'no-store' },
        );
      },
    }),
  ];
}
