import { defineEndpoint, reply, scope, type Endpoint } from '@mt/endpoints';
import type { RolesService } from './roles.service';
import { toUserResponse } from './user.response';
import { RoleRequestSchema, UserIdParamsSchema, UserSchema } from './users.schemas';

/** PUT /users/{id}/role (docs/api.md "Account"). */
export function rolesEndpoints(roles: RolesService): Endpoint[] {
  return [
    defineEndpoint({
      name: 'set user role',
      method: 'PUT',
      path: '/users/{id}/role',
      access: scope('account'),
      summary: "Grant or remove a user's moderator role (admins only)",
      description:
        'Only an admin may call it (403 otherwise); an admin\'s own role, and the role of another admin (named by the deployment in ADMIN_USERNAMES), are not changed this way (403). ' +
        'Removing a role takes effect at once: the user\'s JWTs are revoked (they log in again) and their PATs lose `catalog:moderate` from their next request. A granted role takes effect at the next login.',
      params: UserIdParamsSchema,
      body: RoleRequestSchema,
      responses: { 200: { description: 'The user with the new role', schema: UserSchema } },
      errors: [404, 409],
      async handle({ params, body, caller }) {
        return reply.ok(toUserResponse(await roles.setRole(caller.userId, params.id, body.role)));
      },
    }),
  ];
}
