import { OpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { bearerSecurity, MessageSchema, registerBearerAuth, responses, type z } from '@mt/contracts';
import { LoginRequestSchema, LoginResponseSchema } from './login/login.schemas';
import { AUTH_BASE } from './paths';
import { CreatedTokenSchema, CreateTokenRequestSchema, TokenIdParamsSchema, TokenListSchema } from './tokens/tokens.schemas';
import {
  ChangePasswordRequestSchema,
  PasswordChangedSchema,
  RegisterRequestSchema,
  UpdateProfileRequestSchema,
  UserSchema,
} from './users/users.schemas';

const TAG = 'Account and tokens';

const jsonBody = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema } } });

const scopeNote = (scope: string) =>
  `Requires a JWT, or a personal access token with the \`${scope}\` scope (403 naming the scope otherwise).`;

/** Statuses every request with a JSON body can meet: malformed or invalid (400), too large (413), not JSON (415). */
const BODY_ERRORS = [400, 413, 415];
/** Statuses of every protected operation: no or invalid credential (401), missing scope (403). */
const AUTH_ERRORS = [401, 403];

/** The auth service's public operations (full public paths), generated from the same zod schemas that validate them. */
export function buildOpenApiRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registerBearerAuth(registry);

  registry.registerPath({
    method: 'post',
    path: `${AUTH_BASE}/register`,
    tags: [TAG],
    summary: 'Create an account',
    description: 'Public. Username and email are unique case-insensitively (409). A credential sent along is ignored unless it is invalid (401).',
    request: { body: jsonBody(RegisterRequestSchema) },
    responses: responses({ 201: { description: 'The new user', schema: UserSchema } }, [...BODY_ERRORS, 401, 409]),
  });

  const loginResponses = responses({ 200: { description: 'A JWT and the user', schema: LoginResponseSchema } }, [...BODY_ERRORS, 401]);
  loginResponses[429] = {
    ...(loginResponses[429] as ResponseConfig),
    description:
      'After 10 failed logins for one username or email (existing or not) within 15 minutes, every attempt for it is refused until the window ends, even with the right password',
    headers: { 'Retry-After': { description: 'Seconds until the window ends', schema: { type: 'integer' } } },
  };
  registry.registerPath({
    method: 'post',
    path: `${AUTH_BASE}/login`,
    tags: [TAG],
    summary: 'Log in with username or email',
    description:
      'Public. Unknown user and wrong password are one indistinguishable 401. The JWT (ES256) lives `expires_in` seconds (1 hour by default).',
    request: { body: jsonBody(LoginRequestSchema) },
    responses: loginResponses,
  });

  registry.registerPath({
    method: 'get',
    path: `${AUTH_BASE}/me`,
    tags: [TAG],
    summary: 'Your profile',
    description: scopeNote('profile:read'),
    security: bearerSecurity,
    responses: responses({ 200: { description: 'The user', schema: UserSchema } }, AUTH_ERRORS),
  });

  registry.registerPath({
    method: 'put',
    path: `${AUTH_BASE}/me`,
    tags: [TAG],
    summary: 'Change your username and/or email',
    description: scopeNote('account'),
    security: bearerSecurity,
    request: { body: jsonBody(UpdateProfileRequestSchema) },
    responses: responses({ 200: { description: 'The updated user', schema: UserSchema } }, [...BODY_ERRORS, ...AUTH_ERRORS, 409]),
  });

  registry.registerPath({
    method: 'delete',
    path: `${AUTH_BASE}/me`,
    tags: [TAG],
    summary: 'Delete your account',
    description: `${scopeNote('account')} Removes the user and every token at once (all their JWTs and PATs stop working), frees the username and email, and removes the user's lists in every category (asynchronously, at least once). Catalog entries the user created remain with \`created_by: null\`.`,
    security: bearerSecurity,
    responses: responses({ 200: { description: 'Deleted', schema: MessageSchema } }, AUTH_ERRORS),
  });

  registry.registerPath({
    method: 'put',
    path: `${AUTH_BASE}/password`,
    tags: [TAG],
    summary: 'Change your password',
    description: `${scopeNote('account')} A wrong current password is a 403. Returns a new JWT; every JWT issued before the change (even in the same second) is rejected from now on. Personal access tokens keep working.`,
    security: bearerSecurity,
    request: { body: jsonBody(ChangePasswordRequestSchema) },
    responses: responses({ 200: { description: 'Changed, with a new JWT', schema: PasswordChangedSchema } }, [...BODY_ERRORS, ...AUTH_ERRORS]),
  });

  registry.registerPath({
    method: 'get',
    path: `${AUTH_BASE}/tokens`,
    tags: [TAG],
    summary: 'Your active personal access tokens',
    description: `${scopeNote('account')} Active (not revoked, not expired) tokens, newest first. Never includes the secret.`,
    security: bearerSecurity,
    responses: responses({ 200: { description: 'Token metadata', schema: TokenListSchema } }, AUTH_ERRORS),
  });

  registry.registerPath({
    method: 'post',
    path: `${AUTH_BASE}/tokens`,
    tags: [TAG],
    summary: 'Create a personal access token',
    description: `${scopeNote('account')} Format \`mtp_\` + 32 base62 characters + 6-character base62 CRC32 checksum; only its SHA-256 is stored. \`expires_in_days\` 1–366 (default 90). The name must be unique among your active tokens (409, compared exactly); at most 50 active tokens (409). A PAT can only create tokens whose scopes it holds itself (403).`,
    security: bearerSecurity,
    request: { body: jsonBody(CreateTokenRequestSchema) },
    responses: responses({ 201: { description: 'The token, with its secret (shown only here)', schema: CreatedTokenSchema } }, [
      ...BODY_ERRORS,
      ...AUTH_ERRORS,
      409,
    ]),
  });

  registry.registerPath({
    method: 'delete',
    path: `${AUTH_BASE}/tokens/{id}`,
    tags: [TAG],
    summary: 'Revoke a personal access token',
    description: `${scopeNote('account')} Takes effect on the very next request. 404 for an unknown id, another user's token, or a token already revoked or expired; 400 for a malformed id.`,
    security: bearerSecurity,
    request: { params: TokenIdParamsSchema },
    responses: responses({ 200: { description: 'Revoked', schema: MessageSchema } }, [400, ...AUTH_ERRORS, 404]),
  });

  return registry;
}
