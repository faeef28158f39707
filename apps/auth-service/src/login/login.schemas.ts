import { z } from '@mt/contracts';
import { UserSchema } from '../users/users.schemas';

export const LoginRequestSchema = z
  .strictObject({
    username: z.string().min(1).max(254).openapi({ description: 'Username or email, in any letter case', example: 'ada_l' }),
    password: z.string().min(1).max(128),
  })
  .openapi('LoginRequest');

export const LoginResponseSchema = z
  .object({
    access_token: z.string().openapi({ description: 'A JWT (ES256)' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ description: 'Lifetime of access_token in seconds' }),
    user: UserSchema,
  })
  .openapi('LoginResponse');
