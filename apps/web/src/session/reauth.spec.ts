import { describe, expect, it } from 'vitest';
import { createReauthenticator, reauthenticatingFetch } from './reauth';

/** Answers 401 to the old token and echoes what a request with the new one carried. */
function server() {
  const seen: Array<{ url: string; auth: string | null; body: string }> = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const body = await request.text();
    seen.push({ url: request.url, auth: request.headers.get('authorization'), body });
    if (request.headers.get('authorization') === 'Bearer new') return new Response(JSON.stringify({ body }), { status: 200 });
    return new Response('{"error":"expired","code":"unauthorized"}', { status: 401 });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const post = (path: string, auth?: string, body = '{"notes":"kept"}') =>
  new Request(`http://app.test${path}`, { method: 'PATCH', body, headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) } });

describe('reauthenticatingFetch', () => {
  it('sends the same request again, body included, once the person has logged in again', async () => {
    const reauth = createReauthenticator();
    const { fetch, seen } = server();
    const answer = reauthenticatingFetch(reauth, fetch)(post('/api/v1/movies/list/1', 'Bearer old'));
    await until(() => reauth.pending());
    reauth.succeed('new');
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ body: '{"notes":"kept"}' });
    expect(seen.map((s) => s.auth)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('asks once for every request refused meanwhile', async () => {
    const reauth = createReauthenticator();
    let asked = 0;
    reauth.subscribe(() => (asked += reauth.pending() ? 1 : 0));
    const { fetch } = server();
    const wrapped = reauthenticatingFetch(reauth, fetch);
    const answers = [wrapped(post('/api/v1/a', 'Bearer old')), wrapped(post('/api/v1/b', 'Bearer old')), wrapped(post('/api/v1/c', 'Bearer old'))];
    await until(() => reauth.pending());
    await new Promise((r) => setTimeout(r, 20));
    reauth.succeed('new');
    expect((await Promise.all(answers)).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(asked).toBe(1);
  });

  it('hands the 401 back when the person gives up', async () => {
    const reauth = createReauthenticator();
    const answer = reauthenticatingFetch(reauth, server().fetch)(post('/api/v1/a', 'Bearer old'));
    await until(() => reauth.pending());
    reauth.giveUp();
    expect((await answer).status).toBe(401);
  });

  it('leaves a wrong password at login, and requests without a credential, as they are', async () => {
    const reauth = createReauthenticator();
    const wrapped = reauthenticatingFetch(reauth, server().fetch);
    expect((await wrapped(post('/api/v1/auth/login'))).status).toBe(401);
    expect((await wrapped(post('/api/v1/movies/list'))).status).toBe(401);
    expect(reauth.pending()).toBe(false);
  });

  it('never sends the session token with a login or a registration (a refused one would fail them)', async () => {
    const { fetch, seen } = server();
    const wrapped = reauthenticatingFetch(createReauthenticator(), fetch);
    await wrapped(post('/api/v1/auth/login', 'Bearer old', '{"username":"ada"}'));
    await wrapped(post('/api/v1/auth/register', 'Bearer old', '{"username":"ada"}'));
    expect(seen.map((s) => [s.auth, s.body])).toEqual([
      [null, '{"username":"ada"}'],
      [null, '{"username":"ada"}'],
    ]);
  });
});

async function until(condition: () => boolean) {
  for (let i = 0; i < 100 && !condition(); i += 1) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}
