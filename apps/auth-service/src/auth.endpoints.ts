import type { EndpointGroup } from '@mt/endpoints';
import type { AuthModule } from './auth-module';
import { loginEndpoints } from './login/login.endpoints';
import { tokensEndpoints } from './tokens/tokens.endpoints';
import { rolesEndpoints } from './users/roles.endpoints';
import { usersEndpoints } from './users/users.endpoints';

export const AUTH_SERVICE = 'auth';
export const AUTH_MOUNT = '/api/v1/auth';

/** The auth service's public API (docs/api.md "Account"), in the order a reader meets it. */
export function authEndpoints(auth: AuthModule): EndpointGroup {
  const [register, ...account] = usersEndpoints(auth.users, auth.account);
  return {
    namespace: AUTH_SERVICE,
    mount: AUTH_MOUNT,
    tags: [{ name: 'auth', description: 'Accounts, login, password changes and personal access tokens' }],
    endpoints: [register!, ...loginEndpoints(auth.login), ...account, ...tokensEndpoints(auth.tokens), ...rolesEndpoints(auth.roles)],
  };
}
