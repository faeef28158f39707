import { z } from '@mt/contracts';
import { UserSchema } from '../users/users.schemas';

/** The usual mistake is to send the email under `email`: say where it goes. */
const explainUnknownKeys = (issue: { code: string; keys?: string[] }) =>
  issue.code === 'unrecognized_keys' && issue.keys?.length === 1 && issue.keys[0] === 'email'
    ? 'unknown field: send the email address as `username`, which accepts a username or an email'
    : undefined;

export const LoginRequestSchema = z
  .strictObject(
    {
      username: z.string().min(1).max(254).openapi({ description: 'Username or email, in any letter case', example: 'ada_l' }),
      password: z.string().min(1).max(128),
    },
    { error: explainUnknownKeys },
  )
  .openapi('LoginRequest');

export const LoginResponseSchema = z
  .object({
    access_token: z.string().openapi({ description: 'A JWT (ES256)' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ description: 'Lifetime of access_token in seconds' }),
    user: UserSchema,
  })
  .openapi('LoginResponse');
