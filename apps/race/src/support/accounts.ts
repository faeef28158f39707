import { randomBytes } from 'node:crypto';
import type { HttpClient } from './http-client';

export interface TestUser {
  id: string;
  username: string;
  email: string;
  password: string;
}

const unique = () => randomBytes(5).toString('hex');

function expectStatus(what: string, answer: { status: number; body: unknown }, status: number): void {
  if (answer.status !== status)
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
}

export async function registerUser(http: HttpClient): Promise<TestUser> {
  const username = `racer_${unique()}`;
  const user = { username, email: `${username}@example.com`, password: `pw-${unique()}-long` };
  const answer = await http.post<{ id: string }>('/api/v1/auth/register', user);
  expectStatus('register', answer, 201);
  return { ...user, id: answer.body.id };
}

/** POST /login; the answer as it is (the races look at 200 and 401 alike). */
export function login(http: HttpClient, username: string, password: string) {
  return http.post<{ access_token?: string }>('/api/v1/auth/login', { username, password });
}

export async function loginToken(http: HttpClient, user: TestUser): Promise<string> {
  const answer = await login(http, user.username, user.password);
  expectStatus('login', answer, 200);
  if (!answer.body.access_token) throw new Error('login answered 200 without an access_token');
  return answer.body.access_token;
}

export async function createPat(
  http: HttpClient,
  jwt: string,
  name = `pat-${unique()}`,
): Promise<{ id: string; token: string }> {
  const answer = await http.post<{ id: string; token: string }>(
    '/api/v1/auth/tokens',
    { name },
    { token: jwt },
  );
  expectStatus('create PAT', answer, 201);
  return answer.body;
}

export async function createCatalogEntry(
  http: HttpClient,
  jwt: string,
  category: string,
  title: string,
): Promise<string> {
  const answer = await http.post<{ id: string }>(`/api/v1/${category}`, { title }, { token: jwt });
  expectStatus(`create ${category} entry`, answer, 201);
  return answer.body.id;
}

/**
 * Sends the credential to one endpoint of every kind — auth (profile, tokens), catalog reads and writes,
 * list reads and writes, a public read — and returns those that did not answer 401. The write probes send
 * an empty body: an accepted credential gets a 400 and nothing is written.
 */
export async function endpointsAccepting(http: HttpClient, token: string): Promise<string[]> {
  const probes: Array<[string, string, unknown?]> = [
    ['GET', '/api/v1/auth/me'],
    ['GET', '/api/v1/auth/tokens'],
    ['GET', '/api/v1/movies/list'],
    ['POST', '/api/v1/tvshows/list', {}],
    ['POST', '/api/v1/books', {}],
    ['GET', '/api/v1/movies?limit=1'],
  ];
  const answers = await Promise.all(
    probes.map(async ([method, path, json]) => ({
      probe: `${method} ${path}`,
      status: (await http.request(method, path, { token, json })).status,
    })),
  );
  return answers
    .filter((answer) => answer.status !== 401)
    .map((answer) => `${answer.probe} ${answer.status}`);
}
