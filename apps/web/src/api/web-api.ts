import { ApiClient, ApiError, waitRetryAfter, type User } from '@mt/api-client';
import type { Reauthenticator } from '../session/reauth';
import { reauthenticatingFetch } from '../session/reauth';
import type { SessionStore } from '../session/session-store';

/** Account operations the shared client has no helper for: the same openapi-fetch client, unwrapped alike. */
export interface AccountApi {
  updateMe(body: { username?: string; email?: string }): Promise<User>;
  changePassword(body: { current_password: string; new_password: string }): Promise<{ access_token: string; expires_in: number }>;
  deleteMe(): Promise<void>;
}

export type WebApi = ApiClient & AccountApi;

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

async function unwrap<T>(pending: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as T;
}

export interface WebApiOptions {
  session: SessionStore;
  reauth: Reauthenticator;
  /** Told when a 429 is being waited out, so the screen can say so. */
  onRateLimitWait?: (seconds: number) => void;
  fetch?: typeof fetch;
}

/** The page's own origin, the session's JWT, a new login when it is refused, and short 429 waits. */
export function createWebApi(options: WebApiOptions): WebApi {
  const client = new ApiClient({
    baseUrl: globalThis.location?.origin ?? '',
    token: () => options.session.token(),
    fetch: reauthenticatingFetch(options.reauth, options.fetch),
    onRateLimited: waitRetryAfter({ maxWaitSeconds: 10, maxAttempts: 2, onWait: (seconds) => options.onRateLimitWait?.(seconds) }),
  });
  return Object.assign(client, {
    updateMe: (body: { username?: string; email?: string }) => unwrap(client.http.PUT('/api/v1/auth/me', { body })),
    changePassword: (body: { current_password: string; new_password: string }) =>
      unwrap(client.http.PUT('/api/v1/auth/password', { body })),
    deleteMe: async () => {
      await unwrap(client.http.DELETE('/api/v1/auth/me'));
    },
  });
}
