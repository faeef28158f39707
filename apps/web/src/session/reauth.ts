/**
 * When a request is refused because the JWT ran out or was cut off, the person logs in again in a dialog
 * over the screen they are on (so nothing they typed is lost) and the request is sent again with the new
 * token. One dialog serves every request that failed meanwhile.
 */
export interface Reauthenticator {
  /** Resolves with a new token once the person has logged in again; rejects when they give up. */
  reauthenticate(): Promise<string>;
  /** The open request for the dialog, or undefined. */
  pending(): boolean;
  /** Called by the dialog. */
  succeed(token: string): void;
  giveUp(): void;
  subscribe(listener: () => void): () => void;
}

export class ReauthCancelled extends Error {
  override readonly name = 'ReauthCancelled';
}

export function createReauthenticator(): Reauthenticator {
  let waiting: { promise: Promise<string>; resolve: (token: string) => void; reject: (error: Error) => void } | undefined;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  return {
    reauthenticate() {
      if (!waiting) {
        let resolve!: (token: string) => void;
        let reject!: (error: Error) => void;
        const promise = new Promise<string>((res, rej) => {
          resolve = res;
          reject = rej;
        });
        waiting = { promise, resolve, reject };
        notify();
      }
      return waiting.promise;
    },
    pending: () => waiting !== undefined,
    succeed(token) {
      const current = waiting;
      waiting = undefined;
      current?.resolve(token);
      notify();
    },
    giveUp() {
      const current = waiting;
      waiting = undefined;
      current?.reject(new ReauthCancelled('the person did not log in again'));
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Login and registration: a 401 is a wrong password, not an expired session; and they never carry the
 * session's token, since a refused one would make even these public endpoints answer 401 (docs/api.md "Authentication").
 */
const CREDENTIAL_FREE = /\/api\/v1\/auth\/(login|register)$/;

/**
 * The fetch under the API client: a 401 to a request that carried a credential asks for a new login, then
 * sends the same request (same body) once more with the new token. Giving up returns the 401 as it was.
 */
export function reauthenticatingFetch(reauth: Reauthenticator, baseFetch: typeof fetch = globalThis.fetch.bind(globalThis)): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    if (CREDENTIAL_FREE.test(new URL(request.url).pathname)) {
      const headers = new Headers(request.headers);
      headers.delete('authorization');
      return baseFetch(new Request(request, { headers }));
    }
    const replay = request.clone();
    const response = await baseFetch(request);
    if (response.status !== 401 || !request.headers.has('authorization')) return response;
    let token: string;
    try {
      token = await reauth.reauthenticate();
    } catch {
      return response;
    }
    await response.body?.cancel().catch(() => undefined);
    const headers = new Headers(replay.headers);
    headers.set('authorization', `Bearer ${token}`);
    return baseFetch(new Request(replay, { headers }));
  };
}
