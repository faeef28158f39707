import {
  addToList,
  createEntry,
  createPat,
  createUser,
  expectStatus,
  OWN_FIELDS,
} from './support/api-fixtures';
import { digestDatabases, digestDifferences, type DatabaseDigest } from './support/database-digest';
import { recordFigures } from './support/figures';
import { generateSigningKey, es256, claimsFor } from './support/forged-jwts';
import { buildHostileCases, type HostileCase, type HostileFixtures } from './support/hostile-cases';
import { errorPayloadProblem, HttpClient } from './support/http-client';
import { LeakScanner } from './support/leak-scanner';
import { rawHeaders, sendChunked, sendRaw, type RawAnswer } from './support/raw-http';
import { CATEGORIES, startResilienceStack, type ResilienceStack } from './support/resilience-stack';

/**
 * Issue 8, hostile input: a table of malformed and hostile requests across every endpoint of docs/api.md, each
 * answered with its documented status in the contract's error payload, with the databases unchanged
 * afterwards, no process exit, and nothing leaked (stack traces, hashes, secrets) in any answer or log line.
 */

const signing = generateSigningKey();
const scanner = new LeakScanner();
let env: ResilienceStack;
let api: HttpClient;
let fx: HostileFixtures;
let cases: HostileCase[] = [];
let digestBefore: DatabaseDigest;
const outcomes: Array<{ c: HostileCase; status: number; problem?: string }> = [];

/** Rewritten by legitimate use of a valid credential (at most once a minute), never by a hostile request. */
/**
 * A user's list-owner document is bookkeeping, not data: created on the user's first list write attempt
 * (even a rejected one), its `seq` moved by every committed write (also a bulk request that matched nothing).
 * What a hostile request must never change there is a deletion mark.
 */
const LIVE_LIST_OWNERS = { list_owners: { deleted_at: null } };
const FIXTURE_ISBNS = { listed: '9780000000019', unlisted: '9780000000026', foreign: '9780000000033' };
const DIGEST_IGNORES = { ignoreFields: ['tokens.last_used_at'], ignoreDocuments: LIVE_LIST_OWNERS };

beforeAll(async () => {
  env = await startResilienceStack({
    name: 'hostile',
    appEnv: { 'auth-service': { JWT_PRIVATE_KEY: signing.privatePem } },
  });
  scanner.addSecret(env.stack.internalSecret, 'internal secret');
  // The private key's base64 body, line by line (a log would break it at the same places).
  for (const line of signing.privatePem.split('\n').filter((l) => l.length >= 40))
    scanner.addSecret(line, 'JWT private key');
  api = new HttpClient(env.gatewayUrl, scanner);

  const jwks = expectStatus(
    await new HttpClient(env.stack.process('auth-service').url).get<{ keys: Array<Record<string, unknown>> }>(
      '/internal/jwks',
      { headers: { 'x-mt-internal-secret': env.stack.internalSecret } },
    ),
    200,
    'JWKS',
  );
  const publicJwk = jwks.body.keys[0]!;

  const [userA, userB] = await Promise.all([
    createUser(api, scanner, 'hostileA'),
    createUser(api, scanner, 'hostileB'),
  ]);
  const patDefault = await createPat(api, scanner, userA.jwt, 'default scopes');
  const patListRead = await createPat(api, scanner, userA.jwt, 'list reader', ['list:read']);
  const revoked = await createPat(api, scanner, userA.jwt, 'revoked');
  expectStatus(await api.delete(`/api/v1/auth/tokens/${revoked.id}`, { token: userA.jwt }), 200, 'revoke');

  const movieTitles = {
    matrix: 'The Matrix',
    alien: 'Alien',
    zodiac: 'Zodiac',
    heat: 'Heat',
    jaws: 'Jaws',
    up: 'Up',
  };
  for (const [key, title] of Object.entries(movieTitles))
    await createEntry(api, userA.jwt, 'movies', { title, year: key === 'matrix' ? 1999 : 1980 });
  const entries = {} as HostileFixtures['entries'];
  for (const category of CATEGORIES) {
    // A book's ISBN is one of its external ids (unique in the category): each fixture book gets its own.
    const make = (label: keyof typeof FIXTURE_ISBNS, token: string) =>
      createEntry(api, token, category, {
        title: `Fixture ${label} ${category}`,
        year: 2000,
        ...OWN_FIELDS[category],
        ...(category === 'books' ? { isbn: FIXTURE_ISBNS[label] } : {}),
      });
    entries[category] = {
      onList: await make('listed', userA.jwt),
      free: await make('unlisted', userA.jwt),
      ofB: await make('foreign', userB.jwt),
    };
    await addToList(api, userA.jwt, category, entries[category].onList.id, { status: 'watching', score: 5 });
  }
  // Each PAT used once now: last_used_at is then not rewritten for a minute (and is left out of the digest).
  for (const token of [patDefault.token, patListRead.token])
    expectStatus(await api.get('/api/v1/movies/list', { token }), 200, 'PAT use');

  fx = {
    userA,
    userB,
    patDefault,
    patListRead,
    patRevoked: revoked.token,
    entries,
    movieTitles,
    signingKey: signing.privateKey,
    kid: String(publicJwk['kid']),
    publicJwk,
  };
  cases = buildHostileCases(fx);
  digestBefore = await digestDatabases(env.databases, DIGEST_IGNORES);
}, 180_000);

afterAll(async () => {
  const byStatus: Record<string, number> = {};
  for (const outcome of outcomes) byStatus[outcome.status] = (byStatus[outcome.status] ?? 0) + 1;
  const after = env
    ? await digestDatabases(env.databases, DIGEST_IGNORES).catch(() => undefined)
    : undefined;
  const stopProblem = env
    ? await env.stop().then(
        () => undefined,
        (error: Error) => error.message,
      )
    : undefined;
  if (env) scanner.scanLogs(env.logs);
  const fiveXx = outcomes.filter((o) => o.status >= 500 || o.status === 0).length;
  recordFigures('hostile_input', {
    requests: outcomes.length,
    cases: cases.length,
    by_status: byStatus,
    five_xx: fiveXx,
    unexpected_5xx: fiveXx,
    as_documented: outcomes.filter((o) => !o.problem).length,
    failures: outcomes.filter((o) => o.problem).length,
    databases_unchanged: after && digestBefore ? digestDifferences(digestBefore, after).length === 0 : null,
    collections_compared: digestBefore ? Object.keys(digestBefore.collections).length : 0,
    process_exits: env?.unexpectedExits.length ?? null,
    leak_scan: scanner.summary(),
    stop_problem: stopProblem ?? null,
  });
  if (stopProblem) throw new Error(`stopping the stack failed: ${stopProblem}`);
});

interface Outcome {
  status: number;
  body: unknown;
  headers: { get(name: string): string | null };
}

async function send(c: HostileCase, requestId: string): Promise<Outcome> {
  const idHeader: Record<string, string> =
    c.headers?.['x-request-id'] === undefined ? { 'x-request-id': requestId } : {};
  if (c.wire !== undefined) {
    const answer: RawAnswer = await sendRaw(Number(new URL(env.gatewayUrl).port), c.wire);
    scanner.scanResponse(`raw ${c.name} → ${answer.status}`, answer.wire);
    return { status: answer.status, body: answer.body, headers: rawHeaders(answer) };
  }
  const baseUrl = c.target === 'gateway' ? env.gatewayUrl : env.stack.process(c.target).url;
  if (c.chunkedBytes !== undefined) {
    const headers: Record<string, string> = {
      ...idHeader,
      ...(c.token ? { authorization: `Bearer ${c.token}` } : {}),
    };
    const answer = await sendChunked(baseUrl, c.path, c.chunkedBytes, headers);
    scanner.scanResponse(`chunked ${c.name} → ${answer.status}`, answer.text);
    return { status: answer.status, body: answer.body, headers: rawHeaders(answer) };
  }
  const client = c.target === 'gateway' ? api : new HttpClient(baseUrl, scanner);
  return client.request(c.method, c.path, {
    token: c.token,
    json: c.json,
    raw: c.raw,
    contentType: c.contentType,
    headers: { ...idHeader, ...c.headers },
    timeoutMs: 10_000,
  });
}

function problemWith(c: HostileCase, answer: Outcome): string | undefined {
  if (answer.status !== c.expectStatus)
    return `status ${answer.status}, expected ${c.expectStatus}: ${JSON.stringify(answer.body).slice(0, 300)}`;
  if (answer.status >= 400) {
    const payload = errorPayloadProblem(answer.status, answer.headers, answer.body);
    if (payload) return `error payload: ${payload}`;
  }
  if (c.detailPath) {
    const details = ((answer.body as { details?: Array<{ path: string }> }).details ?? []).map((d) => d.path);
    const named = details.some(
      (path) =>
        path === c.detailPath || path.startsWith(`${c.detailPath}.`) || path.startsWith(`${c.detailPath}[`),
    );
    if (!named) return `details do not name ${c.detailPath}: ${JSON.stringify(details)}`;
  }
  return c.check?.(answer);
}

describe('hostile input through the gateway and straight at the services', () => {
  it('accepts a JWT the test signs with the real key and the issued claims (so the forged ones fail for their flaw)', async () => {
    const token = es256({ alg: 'ES256', kid: fx.kid }, claimsFor(fx.userA.id), fx.signingKey);
    const me = await api.get<{ id: string }>('/api/v1/auth/me', { token });
    expect({ status: me.status, id: me.body.id }).toEqual({ status: 200, id: fx.userA.id });
  });

  it('answers every hostile request with its documented status and the error payload, without a hang', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
    for (const [index, c] of cases.entries()) {
      let outcome: Outcome;
      const requestId = `hostile-${index}`;
      try {
        outcome = await send(c, requestId);
      } catch (error) {
        outcomes.push({ c, status: 0, problem: `no answer: ${(error as Error).message}` });
        continue;
      }
      outcomes.push({ c, status: outcome.status, problem: problemWith(c, outcome) });
    }

    const byStatus = new Map<number, number>();
    const byGroup = new Map<string, { total: number; ok: number; statuses: Set<number> }>();
    for (const { c, status, problem } of outcomes) {
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      const group = byGroup.get(c.group) ?? { total: 0, ok: 0, statuses: new Set<number>() };
      group.total++;
      if (!problem) group.ok++;
      group.statuses.add(status);
      byGroup.set(c.group, group);
    }
    const table = [
      `hostile requests: ${outcomes.length}`,
      `by status: ${[...byStatus]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join('  ')}`,
      ...[...byGroup].map(
        ([name, g]) =>
          `  ${name.padEnd(28)} ${String(g.ok).padStart(4)}/${String(g.total).padEnd(4)} as documented  (${[...g.statuses].sort().join(', ')})`,
      ),
    ].join('\n');
    process.stdout.write(`\n${table}\n`);

    const failures = outcomes
      .filter((o) => o.problem)
      .map((o) => `${o.c.group} | ${o.c.name} | ${o.c.method} ${o.c.path.slice(0, 80)}: ${o.problem}`);
    expect(failures).toEqual([]);
  });

  it('leaves every collection of the stack’s MongoDB databases unchanged', async () => {
    const after = await digestDatabases(env.databases, DIGEST_IGNORES);
    expect(Object.keys(digestBefore.collections).length).toBeGreaterThanOrEqual(4);
    expect(digestDifferences(digestBefore, after)).toEqual([]);
  });

  it('still serves normally afterwards: no process exited, nothing was polluted, credentials still work', async () => {
    expect(env.unexpectedExits).toEqual([]);
    const me = await api.get<Record<string, unknown>>('/api/v1/auth/me', { token: fx.userA.jwt });
    expect(me.status).toBe(200);
    const search = await api.get<{ data: Array<Record<string, unknown>> }>('/api/v1/movies?limit=100');
    expect(search.status).toBe(200);
    const list = await api.get<{ data: unknown[] }>('/api/v1/movies/list', { token: fx.patDefault.token });
    expect(list.status).toBe(200);
    for (const text of [me.text, search.text, list.text]) expect(text).not.toContain('polluted');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('leaks no stack trace, hash or secret in any answer or log line', async () => {
    await env.stack.stop(); // the shutdown lines are scanned too
    scanner.scanLogs(env.logs);
    expect(scanner.leaks).toEqual([]);
    expect(scanner.summary().log_lines_scanned).toBeGreaterThan(0);
  });
});
