import { planFrom, SERVICES_PLAN_VARIABLE } from './plan';

describe('planFrom', () => {
  it("gives each service of the launcher's plan its own variables over the host's, and never another's", () => {
    const plan = planFrom({
      INTERNAL_SECRET: 'shared',
      PORT: '8080',
      CATEGORY: 'books',
      [SERVICES_PLAN_VARIABLE]: JSON.stringify([
        { name: 'registry-service', app: 'registry-service', env: { PORT: '3002' } },
        { name: 'catalog-movies', app: 'catalog-service', env: { PORT: '3011', CATEGORY: 'movies' } },
      ]),
    });
    expect(plan.map(({ name, env }) => [name, env['PORT'], env['CATEGORY'], env['INTERNAL_SECRET']])).toEqual([
      ['registry-service', '3002', undefined, 'shared'],
      ['catalog-movies', '3011', 'movies', 'shared'],
    ]);
    expect(plan[0]?.env[SERVICES_PLAN_VARIABLE]).toBeUndefined();
  });

  it('runs the whole stack from the environment alone: only the gateway on PORT and HOST, the rest on the loopback', () => {
    const plan = planFrom({ PORT: '9000', HOST: '0.0.0.0', CATEGORIES: 'books,movies', MONGO_DB_NAME: 'x' });
    expect(plan.map((service) => service.name)).toEqual(['registry-service', 'auth-service', 'catalog-books', 'catalog-movies', 'scrobble-service', 'gateway']);
    const env = (name: string) => plan.find((service) => service.name === name)?.env ?? {};
    expect(env('gateway')).toMatchObject({ PORT: '9000', HOST: '0.0.0.0', METRICS_PORT: '9464', AUTH_URL: 'http://127.0.0.1:3001' });
    expect(env('catalog-books')).toMatchObject({ PORT: '3013', HOST: '127.0.0.1', CATEGORY: 'books', REGISTRY_URL: 'http://127.0.0.1:3002' });
    // Each service's own metrics port, after the gateway's; a database name is never shared.
    expect(new Set(plan.map((service) => service.env['METRICS_PORT'])).size).toBe(plan.length);
    expect(plan.every((service) => service.env['MONGO_DB_NAME'] === undefined)).toBe(true);
  });

  it('refuses a plan that is not a list of services, and an unknown category, in words', () => {
    expect(() => planFrom({ [SERVICES_PLAN_VARIABLE]: '{' })).toThrow(/MT_SERVICES is not JSON/);
    expect(() => planFrom({ [SERVICES_PLAN_VARIABLE]: '[{"name":"x","app":"web","env":{}}]' })).toThrow(/non-empty JSON array/);
    expect(() => planFrom({ CATEGORIES: 'games' })).toThrow('CATEGORIES: unknown games (known: movies, tvshows, books)');
  });
});
