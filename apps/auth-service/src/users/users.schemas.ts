import { objectIdParam, z } from '@mt/contracts';

export const UsernameSchema = z
  .string()
  .min(3)
  .max(32)
  .regex(/^[A-Za-z0-9_.-]+$/, 'may contain only letters, digits, _ . and -')
  .openapi({ description: '3–32 characters of A-Z a-z 0-9 _ . - ; unique case-insensitively, case kept as given', example: 'ada_l' });

export const EmailSchema = z
  .email()
  .max(254)
  .openapi({ description: 'Unique case-insensitively; stored lower-case', example: 'ada@example.com' });

export const PasswordSchema = z
  .string()
  .min(8)
  .max(128)
  .openapi({ description: '8–128 characters; stored only as an argon2id hash', example: 'correct horse battery' });

export const UserSchema = z
  .object({
    id: z.string().openapi({ example: '665f1f0c2a4b7e0012345678' }),
    username: z.string(),
    email: z.string(),
    role: z.enum(['user', 'moderator', 'admin']).openapi({ description: '`moderator` and `admin` may moderate the catalog; admins are named by the deployment' }),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('User', { description: 'A user account (never includes the password hash)' });
export type UserResponse = z.infer<typeof UserSchema>;

export const RegisterRequestSchema = z
  .strictObject({ username: UsernameSchema, email: EmailSchema, password: PasswordSchema })
  .openapi('RegisterRequest');

export const UpdateProfileRequestSchema = z
  .strictObject({ username: UsernameSchema.optional(), email: EmailSchema.optional() })
  .refine((body) => body.username !== undefined || body.email !== undefined, {
    message: 'give at least one of username, email',
  })
  .openapi('UpdateProfileRequest', { description: 'At least one field. Your own username in another case is not a conflict.' });

export const ChangePasswordRequestSchema = z
  .strictObject({ current_password: z.string().min(1).max(128), new_password: PasswordSchema })
  .openapi('ChangePasswordRequest');

export const PasswordChangedSchema = z
  .object({
    message: z.string(),
    access_token: z.string().openapi({ description: 'A new JWT; JWTs issued before the change are rejected from now on' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ description: 'Lifetime of access_token in seconds' }),
  })
  .openapi('PasswordChanged');

export const RoleRequestSchema = z
  .strictObject({ role: z.enum(['user', 'moderator']).openapi({ description: 'The new role; `admin` is given only by the deployment (ADMIN_USERNAMES)' }) })
  .openapi('RoleRequest');

export const UserIdParamsSchema = z.strictObject({
  id: objectIdParam(),
});
