import { createEntry, createPat, createUser, type CatalogEntry } from './support/api-fixtures';
import { HttpClient } from './support/http-client';
import { LoadWorkload, SEARCH_WORDS, type LoadUser } from './support/load-workload';
import { CATEGORIES, startResilienceStack, type Category, type ResilienceStack } from './support/resilience-stack';
import { runTraffic } from './support/traffic';

let env: ResilienceStack;
afterAll(async () => env?.stop());
it('scratch', async () => {
  env = await startResilienceStack({ name: 'scratch', env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  const api = new HttpClient(env.gatewayUrl);
  const users: LoadUser[] = [];
  for (let i = 0; i < 6; i++) { const u = await createUser(api, undefined, `s${i}`); users.push({ ...u, pat: (await createPat(api, undefined, u.jwt, 'p')).token }); }
  const items = {} as Record<Category, CatalogEntry[]>;
  for (const c of CATEGORIES) { items[c] = []; for (let i = 0; i < 24; i++) items[c].push(await createEntry(api, users[i % 6]!.jwt, c, { title: `Seed ${SEARCH_WORDS[i % 8]} ${c} ${i}`, year: 1970 + i })); }
  const w = new LoadWorkload(api, users, items);
  const heap = async () => { const t = await (await fetch(`${env.stack.process('gateway').url}/metrics`)).text(); return { heap: Number(/^nodejs_heap_size_used_bytes\{[^}]*\} (\S+)/m.exec(t)?.[1]) / 1048576, lines: t.split('\n').length }; };
  const samples: Array<{ heap: number; lines: number }> = [];
  const timer = setInterval(async () => samples.push(await heap()), 500);
  const out: string[] = [];
  for (let round = 0; round < 10; round++) {
    const before = samples.length;
    await runTraffic({ rate: 80, maxInFlight: 32, durationMs: 15_000, next: () => w.next() });
    const win = samples.slice(before);
    out.push(`round ${round}: floor ${Math.min(...win.map((s) => s.heap)).toFixed(1)} max ${Math.max(...win.map((s) => s.heap)).toFixed(1)} metric lines ${win.at(-1)?.lines}`);
  }
  clearInterval(timer);
  console.log(out.join('\n'));
}, 400_000);
