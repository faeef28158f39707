import { describe, expect, it } from 'vitest';
import { USER } from '../test/fake-server';
import { createSessionStore, SESSION_KEY, sessionFromLogin } from './session-store';

describe('the session store', () => {
  it('keeps the JWT in sessionStorage for a reload of this tab, never in localStorage', () => {
    const store = createSessionStore(sessionStorage, () => 1_000);
    store.start(sessionFromLogin({ access_token: 'jwt-1', expires_in: 3600, user: USER }, 1_000));
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null')).toMatchObject({ token: 'jwt-1', expiresAt: 3_601_000 });
    expect(localStorage.length).toBe(0);
    expect(createSessionStore(sessionStorage, () => 2_000).token()).toBe('jwt-1');
  });

  it('forgets a stored session whose JWT has run out and says it expired', () => {
    sessionStorage.setItem(SESSION_KEY, JSON.stringify({ token: 'old', expiresAt: 5_000, user: USER }));
    const store = createSessionStore(sessionStorage, () => 5_000);
    expect(store.current()).toBeUndefined();
    expect(store.ended()).toBe('expired');
    expect(sessionStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('ignores a stored value that is not a session', () => {
    sessionStorage.setItem(SESSION_KEY, '{"token": 42}');
    expect(createSessionStore(sessionStorage).current()).toBeUndefined();
    sessionStorage.setItem(SESSION_KEY, 'not json');
    expect(createSessionStore(sessionStorage).current()).toBeUndefined();
  });

  it('renews the token of the same person and tells its listeners', () => {
    const store = createSessionStore(sessionStorage, () => 0);
    store.start({ token: 'a', expiresAt: 10, user: USER });
    let told = 0;
    store.subscribe(() => (told += 1));
    store.renew('b', 60);
    expect(store.current()).toEqual({ token: 'b', expiresAt: 60_000, user: USER });
    store.end('logged_out');
    expect(store.current()).toBeUndefined();
    expect(store.ended()).toBe('logged_out');
    expect(sessionStorage.getItem(SESSION_KEY)).toBeNull();
    expect(told).toBe(2);
  });
});
