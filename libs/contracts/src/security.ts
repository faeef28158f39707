import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

export const BEARER_AUTH = 'bearerAuth';

export function registerBearerAuth(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', BEARER_AUTH, {
    type: 'http',
    scheme: 'bearer',
    description: 'A JWT from POST /api/v1/auth/login, or a personal access token (mtp_...)',
  });
}

/** `security` of an operation that needs a credential; `scope` is documented in the description. */
export const bearerSecurity = [{ [BEARER_AUTH]: [] }];
