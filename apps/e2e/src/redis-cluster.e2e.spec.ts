import { parseRedisTarget } from '@mt/config';
import { failOverOneMaster } from '@mt/stack';
import { testRedisUrl } from '@mt/testing';
import { randomUUID } from 'node:crypto';
import type { ApiResponse } from './support/api-client';
import type { CatalogEntry, CreatedToken, ListEntry, LoginResponse, Page, User } from './support/api-types';
import { startTestStack, type TestStack } from './support/test-stack';

/**
 * A stack on a Redis Cluster (`npm run test:cluster` starts a local 3-master, 3-replica one): writes keep
 * flowing while every master in turn hands over to its replica (CLUSTER FAILOVER), and no acknowledged write
 * is lost. The only retry allowed is the documented one (docs/operations.md "Redis Cluster"): a 5xx answer
 * to a POST sent with an Idempotency-Key is sent again under the same key.
 */
const cluster = (() => {
  const target = parseRedisTarget(testRedisUrl());
  return target.kind === 'cluster' ? target : undefined;
})();
const describeOnCluster = cluster ? describe : describe.skip;

const PASSWORD = 'correct horse battery';
/** Retries of one POST that answered 5xx (the documented retry); more fails the test. */
const RETRIES = 3;
/** The gateway's Idempotency-Key claim lease (IDEMPOTENCY_CLAIM_LEASE_MS). */
const CLAIM_LEASE_MS = 10_000;

describeOnCluster('a stack on a Redis Cluster while its masters fail over (skipped unless REDIS_URL is a cluster)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    // The writer measures failovers, not the per-user limit, which it reaches within a minute of writing as
    // fast as answers come (as the two-of-everything writers would).
    stack = await startTestStack({ name: 'redis-cluster', appEnv: { gateway: { RATE_LIMIT_PER_MINUTE: '100000' } } });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('loses no acknowledged write and answers no unretried 5xx while each master fails over in turn', async () => {
    const { api } = stack;
    const name = `cl${Date.now().toString(36)}`;
    expect((await api.post<User>('/api/v1/auth/register', { username: name, email: `${name}@example.com`, password: PASSWORD })).status).toBe(201);
    const jwt = (await api.post<LoginResponse>('/api/v1/auth/login', { username: name, password: PASSWORD })).body.access_token;
    const pat = await api.post<CreatedToken>('/api/v1/auth/tokens', { name: 'writer', scopes: ['catalog:write', 'list:read', 'list:write'] }, { token: jwt });
    expect(pat.status).toBe(201);
    const token = pat.body.token;

    const retried: string[] = [];
    /**
     * A POST under an Idempotency-Key, sent again under the same key after a 5xx, and after a 409 "still being
     * processed" for at most a claim lease from the first such 409 (as a client should: a gateway that met the
     * failover while recording an outcome records it once the new master answers, and at worst the claim lapses).
     */
    async function postOnce<T>(path: string, body: unknown): Promise<ApiResponse<T>> {
      const key = randomUUID();
      let inFlightUntil: number | undefined;
      for (let attempt = 0; ; attempt++) {
        const answer = await api.post<T>(path, body, { token, headers: { 'idempotency-key': key } });
        const inFlight = answer.status === 409 && JSON.stringify(answer.body).includes('still being processed');
        if (inFlight) inFlightUntil ??= Date.now() + CLAIM_LEASE_MS + 2_000;
        if (inFlight && Date.now() < (inFlightUntil ?? 0)) {
          retried.push(`${path} → 409 still being processed`);
          attempt--;
          await new Promise((resolve) => setTimeout(resolve, 500));
          continue;
        }
        if (answer.status < 500 || attempt === RETRIES) return answer;
        retried.push(`${path} → ${answer.status}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    const acknowledged: string[] = [];
    const failures: string[] = [];
    let writing = true;
    let failingOver = false;
    let acknowledgedDuringFailovers = 0;
    const writer = (async () => {
      // On until the failovers are over, and a few writes more on the new masters.
      for (let i = 0, after = 0; writing || after++ < 5; i++) {
        const created = await postOnce<CatalogEntry>('/api/v1/movies', { title: `Failover ${name} ${i}`, year: 2000 + (i % 20) });
        if (created.status !== 201) {
          failures.push(`create ${i} → ${created.status} ${JSON.stringify(created.body)}`);
          continue;
        }
        const added = await postOnce<ListEntry>('/api/v1/movies/list', { item_id: created.body.id, status: 'completed', score: (i % 10) + 1 });
        if (added.status === 201) {
          acknowledged.push(created.body.id);
          if (failingOver) acknowledgedDuringFailovers++;
        } else failures.push(`add ${i} → ${added.status} ${JSON.stringify(added.body)}`);
      }
    })();

    // Every master hands over once: each slot's master changes while the writes go on.
    const ports = cluster!.nodes.map((node) => node.port);
    try {
      for (let round = 0; round < 3; round++) {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        failingOver = true;
        await failOverOneMaster(ports);
        failingOver = false;
      }
    } finally {
      writing = false;
      await writer;
    }

    expect(failures).toEqual([]);
    expect(retried.length).toBeLessThanOrEqual(acknowledged.length);
    expect(acknowledgedDuringFailovers).toBeGreaterThan(0);
    const listed = new Set<string>();
    for (let number = 1, pages = 1; number <= pages; number++) {
      const page = await api.get<Page<ListEntry>>(`/api/v1/movies/list?limit=100&page=${number}`, { token });
      expect(page.status).toBe(200);
      for (const entry of page.body.data) listed.add(entry.item_id);
      pages = page.body.total_pages;
    }
    expect(acknowledged.filter((id) => !listed.has(id))).toEqual([]);
    console.log(
      `redis cluster failover: ${acknowledged.length} writes acknowledged and found (${acknowledgedDuringFailovers} while a failover ran), ` +
        `${retried.length} retried (${retried.join(', ') || 'none'})`,
    );

    // After the failovers, what lives in Redis still takes effect at once: a revoked token, a cut-off JWT.
    expect((await api.delete(`/api/v1/auth/tokens/${pat.body.id}`, { token: jwt })).status).toBe(200);
    expect((await api.get('/api/v1/movies/list', { token })).status).toBe(401);
    const changed = await api.put<LoginResponse>('/api/v1/auth/password', { current_password: PASSWORD, new_password: `${PASSWORD} 2` }, { token: jwt });
    expect(changed.status).toBe(200);
    expect((await api.get('/api/v1/auth/me', { token: jwt })).status).toBe(401);
    expect((await api.get('/api/v1/auth/me', { token: changed.body.access_token })).status).toBe(200);
  }, 240_000);
});
