/** Public routes are mounted at their full public path, so the gateway proxies without rewriting. */
export const AUTH_BASE = '/api/v1/auth';

export const AUTH_PATHS = {
  register: `${AUTH_BASE}/register`,
  login: `${AUTH_BASE}/login`,
  me: `${AUTH_BASE}/me`,
  password: `${AUTH_BASE}/password`,
  tokens: `${AUTH_BASE}/tokens`,
  token: `${AUTH_BASE}/tokens/:id`,
} as const;
