import { defineEndpoint, PUBLIC, reply, type Endpoint } from '@mt/endpoints';
import { toUserResponse } from '../users/user.response';
import { LoginRequestSchema, LoginResponseSchema } from './login.schemas';
import type { LoginService } from './login.service';

export function loginEndpoints(login: LoginService): Endpoint[] {
  return [
    defineEndpoint({
      name: 'login',
      method: 'POST',
      path: '/login',
      access: PUBLIC,
      summary: 'Log in with username or email',
      description:
        'Unknown user and wrong password are one indistinguishable 401. The JWT (ES256) lives `expires_in` seconds (1 hour by default). After 10 failed logins for one account (by username or email, existing or not) within 15 minutes, every attempt is refused with 429 until the window ends, even with the right password.',
      body: LoginRequestSchema,
      responses: { 200: { description: 'A JWT and the user', schema: LoginResponseSchema } },
      async handle({ body }) {
        const { jwt, user } = await login.login(body.username, body.password);
        return reply.ok(
          { access_token: jwt.accessToken, token_type: 'Bearer', expires_in: jwt.expiresIn, user: toUserResponse(user) },
          { 'Cache-Control': 'no-store' },
        );
      },
    }),
  ];
}
