// The whole stack as processes of the built apps (registry, auth, the movies and tvshows catalogs, the
// scrobble service, the gateway), each on a database and Redis namespace of this test file, every output
// line kept for the suites that read the logs. Build the apps first (the `test:integration` target does).
import { startStack, type LogLine, type Stack } from '@mt/stack';
import { deleteRedisPrefix, dropTestDatabase, testDbName, testMongoUrl, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { generateKeyPairSync } from 'node:crypto';

export interface ScrobbleStack {
  stack: Stack;
  gatewayUrl: string;
  /** Every line every process wrote so far. */
  lines: LogLine[];
  stop(): Promise<void>;
}

export async function startScrobbleStack(options: { name?: string; scrobbleEnv?: NodeJS.ProcessEnv; catalogEnv?: NodeJS.ProcessEnv } = {}): Promise<ScrobbleStack> {
  const name = options.name ?? 'sc';
  const prefix = testRedisPrefix(name === 'sc' ? 'scrobble' : `scrobble-${name}`);
  const names = { auth: testDbName(`${name}_auth`), catalog: (category: string) => `${testDbName(`${name}_cat`)}_${category}`, scrobble: testDbName(`${name}_scrobble`) };
  const catalogs = { movies: names.catalog('movies'), tvshows: names.catalog('tvshows') };
  const lines: LogLine[] = [];
  const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const stack = await startStack({
    apps: ['registry-service', 'auth-service', 'catalog-service', 'scrobble-service', 'gateway'],
    categories: ['movies', 'tvshows'],
    ports: 'free',
    gatewayPort: 0,
    mongoUrl: testMongoUrl(),
    redisUrl: testRedisUrl(),
    redisKeyPrefix: prefix,
    mongoDbNames: { auth: names.auth, catalog: (category) => catalogs[category as keyof typeof catalogs] ?? names.catalog(category), scrobble: names.scrobble },
    logLevel: 'debug',
    appEnv: {
      'auth-service': { JWT_PRIVATE_KEY: privateKey, ARGON2_CONCURRENCY: '1' },
      gateway: { RATE_LIMIT_PER_MINUTE: '0' },
      'catalog-service': { ...options.catalogEnv },
      'scrobble-service': { PENDING_SWEEP_MS: '1000', SCROBBLE_LOCK_MS: '2000', ...options.scrobbleEnv },
    },
    onLog: (line) => lines.push(line),
  });
  const stop = async () => {
    await stack.stop();
    await Promise.all([deleteRedisPrefix(prefix), ...[names.auth, catalogs.movies, catalogs.tvshows, names.scrobble].map((name) => dropTestDatabase(name).catch(() => undefined))]);
  };
  try {
    await stack.waitReady(120_000);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  return { stack, gatewayUrl: stack.gatewayUrl as string, lines, stop };
}

export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** A JSON request to the gateway; `body` as a Buffer or string is sent as it is, with `contentType`. */
export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; contentType?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | Buffer | undefined;
  if (Buffer.isBuffer(options.body) || typeof options.body === 'string') {
    body = options.body as string | Buffer;
    headers['content-type'] = options.contentType ?? 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T };
}

/** A new account's JWT (every scope a user may hold). */
export async function newUser(baseUrl: string, name: string): Promise<string> {
  const username = `${name}${Math.random().toString(36).slice(2, 8)}`;
  const password = 'correct horse battery staple';
  const registered = await call(baseUrl, 'POST', '/api/v1/auth/register', { body: { username, email: `${username}@example.com`, password } });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const login = await call<{ access_token: string }>(baseUrl, 'POST', '/api/v1/auth/login', { body: { username, password } });
  return login.body.access_token;
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
