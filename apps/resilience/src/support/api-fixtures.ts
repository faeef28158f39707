import { randomBytes } from 'node:crypto';
import type { Answer, HttpClient } from './http-client';
import type { LeakScanner } from './leak-scanner';
import type { Category } from './resilience-stack';

export interface TestUser {
  id: string;
  username: string;
  email: string;
  password: string;
  jwt: string;
}

export interface CatalogEntry {
  id: string;
  title: string;
  year: number | null;
}

const unique = () => randomBytes(4).toString('hex');

/** Fails with the whole answer in the message: a fixture that cannot be set up explains why. */
export function expectStatus<T>(answer: Answer<T>, status: number, what: string): Answer<T> {
  if (answer.status !== status)
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer;
}

/** Registers and logs in a user; its password and JWT become secrets the leak scan looks for. */
export async function createUser(
  api: HttpClient,
  scanner: LeakScanner | undefined,
  label: string,
): Promise<TestUser> {
  const username = `${label}_${unique()}`;
  const email = `${username}@example.com`;
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  scanner?.addSecret(password, 'password');
  const registered = expectStatus(
    await api.post<{ id: string }>('/api/v1/auth/register', { username, email, password }),
    201,
    `register ${username}`,
  );
  const jwt = await login(api, scanner, username, password);
  return { id: registered.body.id, username, email, password, jwt };
}

export async function login(
  api: HttpClient,
  scanner: LeakScanner | undefined,
  username: string,
  password: string,
): Promise<string> {
  const answer = expectStatus(
    await api.post<{ access_token: string }>(
      '/api/v1/auth/login',
      { username, password },
      { allowTokens: true },
    ),
    200,
    `login ${username}`,
  );
  scanner?.addSecret(answer.body.access_token, 'JWT');
  return answer.body.access_token;
}

/** Creates a PAT; the secret and its hash become secrets the leak scan looks for. */
export async function createPat(
  api: HttpClient,
  scanner: LeakScanner | undefined,
  jwt: string,
  name: string,
  scopes?: string[],
): Promise<{ id: string; token: string }> {
  const answer = expectStatus(
    await api.post<{ id: string; token: string }>(
      '/api/v1/auth/tokens',
      { name, ...(scopes ? { scopes } : {}) },
      { token: jwt, allowTokens: true },
    ),
    201,
    `create token ${name}`,
  );
  scanner?.addPat(answer.body.token);
  return { id: answer.body.id, token: answer.body.token };
}

/** Valid values of each category's own fields. */
export const OWN_FIELDS: Record<Category, Record<string, unknown>> = {
  movies: { runtime_minutes: 136, director: 'Lana Wachowski' },
  tvshows: { seasons: 5, episodes: 62, network: 'AMC' },
  books: { authors: ['Ursula K. Le Guin'], isbn: '978-0-441-47812-5', pages: 304 },
};

export async function createEntry(
  api: HttpClient,
  token: string,
  category: Category,
  fields: Record<string, unknown>,
): Promise<CatalogEntry> {
  const answer = expectStatus(
    await api.post<CatalogEntry>(`/api/v1/${category}`, fields, { token }),
    201,
    `create ${category} entry`,
  );
  return { id: answer.body.id, title: answer.body.title, year: answer.body.year };
}

export async function addToList(
  api: HttpClient,
  token: string,
  category: Category,
  itemId: string,
  fields: Record<string, unknown> = {},
) {
  expectStatus(
    await api.post(`/api/v1/${category}/list`, { item_id: itemId, ...fields }, { token }),
    201,
    `add to ${category} list`,
  );
}
