import { ApiClient } from '@mt/api-client';
import { randomBytes } from 'node:crypto';

export interface TestUser {
  username: string;
  email: string;
  password: string;
  id: string;
}

/** A new user registered over HTTP (the CLI has no register command: accounts are made on the web). */
export async function registerUser(url: string, prefix = 'user', username = `${prefix}_${randomBytes(4).toString('hex')}`): Promise<TestUser> {
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const email = `${username}@example.com`;
  const user = await new ApiClient({ baseUrl: url }).register({ username, email, password });
  return { username, email, password, id: user.id };
}

/** A client logged in as the user with a JWT (every scope), for arranging data the CLI then reads. */
export async function clientFor(url: string, user: TestUser): Promise<ApiClient> {
  const login = await new ApiClient({ baseUrl: url }).login({ username: user.username, password: user.password });
  return new ApiClient({ baseUrl: url, token: login.access_token });
}

/** `count` new catalog entries put on the user's list, a few requests at a time; their ids. */
export async function seedList(api: ApiClient, category: string, count: number, label: string): Promise<string[]> {
  const ids: string[] = new Array<string>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const entry = await api.createEntry(category, { title: `${label} ${String(index).padStart(4, '0')}`, year: 2000 + (index % 20) });
      await api.addListEntry(category, { item_id: entry.id, status: 'plan_to_watch' });
      ids[index] = entry.id;
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return ids;
}
