import type { User } from '@mt/api-client';

export interface Session {
  token: string;
  /** Epoch milliseconds after which the JWT is refused (from the login's `expires_in`). */
  expiresAt: number;
  user: User;
}

/** Why there is no session: never logged in, logged out, or the JWT ran out / was cut off. */
export type SessionEnd = 'none' | 'logged_out' | 'expired' | 'deleted';

type Listener = () => void;

/**
 * sessionStorage, not localStorage: the JWT lives as long as the tab (a reload keeps you logged in, a closed
 * tab forgets it), is never shared with other tabs or other origins, and is never sent by the browser on
 * its own (no cookie, so no CSRF). The strict CSP and rendering user text only as text keep scripts that
 * could read it away. (README "Web app" → credentials.)
 */
export const SESSION_KEY = 'mt.session';

export interface SessionStore {
  current(): Session | undefined;
  /** The bearer token to send now; undefined when logged out. */
  token(): string | undefined;
  /** Why the last session ended (for the login screen's wording). */
  ended(): SessionEnd;
  start(session: Session): void;
  /** A new JWT for the same user (password change, re-login after expiry). */
  renew(token: string, expiresInSeconds: number): void;
  updateUser(user: User): void;
  end(reason: Exclude<SessionEnd, 'none'>): void;
  subscribe(listener: Listener): () => void;
}

const isSession = (value: unknown): value is Session => {
  const s = value as Session | null;
  return Boolean(s) && typeof s?.token === 'string' && typeof s.expiresAt === 'number' && typeof s.user?.id === 'string';
};

export function createSessionStore(storage: Storage | undefined = globalThis.sessionStorage, now: () => number = Date.now): SessionStore {
  const listeners = new Set<Listener>();
  let ended: SessionEnd = 'none';
  let session: Session | undefined = read();

  function read(): Session | undefined {
    try {
      const parsed: unknown = JSON.parse(storage?.getItem(SESSION_KEY) ?? 'null');
      if (!isSession(parsed)) return undefined;
      if (parsed.expiresAt <= now()) {
        storage?.removeItem(SESSION_KEY);
        ended = 'expired';
        return undefined;
      }
      return parsed;
    } catch {
      return undefined;
    }
  }

  const save = (next: Session | undefined) => {
    session = next;
    try {
      if (next) storage?.setItem(SESSION_KEY, JSON.stringify(next));
      else storage?.removeItem(SESSION_KEY);
    } catch {
      // Storage full or disabled (private mode): the session still works in memory for this page.
    }
    for (const listener of [...listeners]) listener();
  };

  return {
    current: () => session,
    token: () => session?.token,
    ended: () => ended,
    start: (next) => {
      ended = 'none';
      save(next);
    },
    renew: (token, expiresInSeconds) => {
      if (session) save({ ...session, token, expiresAt: now() + expiresInSeconds * 1000 });
    },
    updateUser: (user) => {
      if (session) save({ ...session, user });
    },
    end: (reason) => {
      ended = reason;
      save(undefined);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const sessionFromLogin = (login: { access_token: string; expires_in: number; user: User }, now = Date.now()): Session => ({
  token: login.access_token,
  expiresAt: now + login.expires_in * 1000,
  user: login.user,
});
