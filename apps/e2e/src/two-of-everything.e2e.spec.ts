import { randomUUID } from 'node:crypto';
import { CATEGORIES, startTestStack, type Category, type TestStack } from './support/test-stack';
import { TWO_OF_EVERYTHING, waitForTwoOfEach } from './support/two-of-everything';

/**
 * Two of every service behind a round-robin front (the client asks the two gateways in turn), while one
 * instance of each kind in turn is SIGKILLed and started again. What a client may meet, and does as
 * docs/operations.md "Two of every service" says: a gateway that refuses the connection or drops it, or a
 * 502/503/504, is asked again on the other gateway, a POST under the same Idempotency-Key; a 409 "still being
 * processed" on such a retry is asked again a moment later (a dead gateway's claim lapses within its lease);
 * and a retried create that finds its own first attempt done (409 with `existing_id`, or already on the list)
 * counts as done. Nothing else.
 */
const describeTwo = TWO_OF_EVERYTHING ? describe : describe.skip;

/** The registry forgets a dead instance quickly here, as the operations suite does (TTL, sweep, heartbeat). */
const FAST_EXPIRY = {
  'registry-service': { INSTANCE_TTL_MS: '3000', SWEEP_INTERVAL_MS: '500' },
  'catalog-service': { REGISTRY_HEARTBEAT_MS: '1000' },
  'auth-service': { REGISTRY_HEARTBEAT_MS: '1000' },
  'scrobble-service': { REGISTRY_HEARTBEAT_MS: '1000' },
  // The writers measure kills, not the per-user limit, which their retries could otherwise reach (as the
  // resilience suites do).
  gateway: { RATE_LIMIT_PER_MINUTE: '100000' },
};
const PASSWORD = 'correct horse battery';
/** Retries of one request: a dead gateway's claim of the key lapses within its lease (10 s). */
const ATTEMPTS = 40;
/** One instance of each kind, SIGKILLed in this order (the first of each; the second keeps serving). */
const VICTIMS = ['gateway', 'auth-service', 'registry-service', 'scrobble-service', ...CATEGORIES.map((category) => `catalog-${category}`)];

interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** Whether an earlier attempt may have run (it was sent and got no answer, or a 5xx). */
  retried: boolean;
}

const stillRunning = (answer: Answer) => answer.status === 409 && String(answer.body['error']).includes('still being processed');
/** A retried POST that finds what its first attempt made: the outcome the client wanted. */
const doneByFirstAttempt = (answer: Answer) => answer.retried && answer.status === 409 && !stillRunning(answer);

describeTwo('two of every service while one of each kind is killed and restarted (MT_TWO_OF_EVERYTHING=1)', () => {
  let stack: TestStack;
  const retried: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ name: 'two', appEnv: FAST_EXPIRY });
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
  }, 90_000);

  let turn = 0;
  /** The round-robin front with its documented retry: the other gateway, the same Idempotency-Key. */
  async function front(method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) };
    if (method === 'POST') headers['idempotency-key'] = randomUUID();
    for (let attempt = 1; ; attempt++) {
      const url = stack.gatewayUrls[turn++ % stack.gatewayUrls.length];
      let outcome: Answer | string;
      try {
        const response = await fetch(`${url}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined, signal: AbortSignal.timeout(15_000) });
        const text = await response.text();
        outcome = { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, retried: attempt > 1 };
        if ((outcome.status < 502 || outcome.status > 504) && !(outcome.retried && stillRunning(outcome))) return outcome;
        outcome = `${outcome.status} ${text.slice(0, 120)}`;
      } catch (error) {
        outcome = (error as Error).message;
      }
      if (attempt === ATTEMPTS) throw new Error(`${method} ${path}: still failing after ${ATTEMPTS} attempts: ${outcome}`);
      retried.push(`${method} ${path.replace(/[0-9a-f]{24}/g, ':id')}: ${outcome}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it('loses no acknowledged write and shows no error beyond the retried ones', async () => {
    const name = `two${Date.now().toString(36)}`;
    expect((await front('POST', '/api/v1/auth/register', undefined, { username: name, email: `${name}@example.com`, password: PASSWORD })).status).toBe(201);
    const jwt = (await front('POST', '/api/v1/auth/login', undefined, { username: name, password: PASSWORD })).body['access_token'] as string;
    const pat = await front('POST', '/api/v1/auth/tokens', jwt, { name: 'writer', scopes: ['catalog:write', 'list:read', 'list:write'] });
    expect(pat.status).toBe(201);
    const token = pat.body['token'] as string;

    const acknowledged = new Map<Category, string[]>(CATEGORIES.map((category) => [category, []]));
    const failures: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const category = CATEGORIES[i % CATEGORIES.length] as Category;
        try {
          const created = await front('POST', `/api/v1/${category}`, token, { title: `Two ${name} ${i}`, year: 1990 + (i % 30) });
          const id = created.status === 201 ? created.body['id'] : doneByFirstAttempt(created) ? created.body['existing_id'] : undefined;
          if (typeof id !== 'string') throw new Error(`create → ${created.status} ${JSON.stringify(created.body)}`);
          const added = await front('POST', `/api/v1/${category}/list`, token, { item_id: id, status: 'completed' });
          if (added.status !== 201 && !doneByFirstAttempt(added)) throw new Error(`add → ${added.status} ${JSON.stringify(added.body)}`);
          acknowledged.get(category)?.push(id);
          // A read through the front too: the profile (auth) and the list (catalog).
          const me = await front('GET', '/api/v1/auth/me', jwt);
          if (me.status !== 200) throw new Error(`me → ${me.status} ${JSON.stringify(me.body)}`);
        } catch (error) {
          failures.push(`${category} ${i}: ${(error as Error).message}`);
        }
      }
    })();

    for (const victim of VICTIMS) {
      const service = stack.stack.process(victim);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      service.kill('SIGKILL');
      await service.exited;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await service.restart({ readyTimeoutMs: 90_000 });
      // Back in every gateway's routes before the next kind goes down.
      await Promise.all(stack.stack.processes.filter((s) => s.app === 'gateway').map((gateway) => waitForTwoOfEach(gateway, CATEGORIES)));
    }
    writing = false;
    await writer;

    expect(failures).toEqual([]);
    for (const [category, ids] of acknowledged) {
      expect(ids.length).toBeGreaterThan(0);
      const listed = new Set<string>();
      for (let page = 1, pages = 1; page <= pages; page++) {
        const answer = await front('GET', `/api/v1/${category}/list?limit=100&page=${page}`, token);
        expect(answer.status).toBe(200);
        for (const entry of answer.body['data'] as Array<{ item_id: string }>) listed.add(entry.item_id);
        pages = answer.body['total_pages'] as number;
      }
      expect(ids.filter((id) => !listed.has(id))).toEqual([]);
    }
    const total = [...acknowledged.values()].reduce((sum, ids) => sum + ids.length, 0);
    console.log(`two of everything: ${total} writes acknowledged and found over ${VICTIMS.length} kills; ${retried.length} requests retried:\n  ${retried.join('\n  ') || 'none'}`);
  }, 600_000);
});
