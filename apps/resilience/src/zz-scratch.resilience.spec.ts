import { createEntry, createPat, createUser, type CatalogEntry } from './support/api-fixtures';
import { HttpClient } from './support/http-client';
import { LoadWorkload, SEARCH_WORDS, type LoadUser } from './support/load-workload';
import { rssMb } from './support/memory-sampler';
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
  const heap = async (name: string) => { const t = await (await fetch(`${env.stack.process(name).url}/metrics`)).text(); return Math.round(Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(t)?.[1]) / 1048576); };
  const log: string[] = [];
  const timer = setInterval(async () => { const g = env.stack.process('gateway'); const t = env.stack.process('catalog-tvshows'); log.push(`g rss ${Math.round(rssMb(g.pid)!)} heap ${await heap('gateway')} | tv rss ${Math.round(rssMb(t.pid)!)} heap ${await heap('catalog-tvshows')}`); }, 3000);
  await runTraffic({ rate: 60, maxInFlight: 32, durationMs: 90_000, next: () => w.next() });
  log.push('--- idle');
  await new Promise((r) => setTimeout(r, 20_000));
  clearInterval(timer);
  console.log(log.join('\n'));
}, 300_000);
