import { ConfigError } from '@mt/config';
import { hostname } from 'node:os';
import { loadCatalogConfig } from './config';

const SECRET = 's'.repeat(32);

describe('catalog configuration', () => {
  it('derives port, database, instance id and advertised URL from the category', () => {
    const movies = loadCatalogConfig({ CATEGORY: 'movies', INTERNAL_SECRET: SECRET });
    expect(movies).toMatchObject({
      PORT: 3011,
      MONGO_DB_NAME: 'catalog_movies',
      REGISTRY_URL: 'http://127.0.0.1:3002',
      ADVERTISED_URL: 'http://127.0.0.1:3011',
      EVENTS_CLAIM_IDLE_MS: 60_000,
    });
    expect(movies.INSTANCE_ID).toBe(`movies-${hostname().replace(/[^A-Za-z0-9._-]/g, '-')}-${process.pid}`);
    expect(loadCatalogConfig({ CATEGORY: 'tvshows', INTERNAL_SECRET: SECRET }).PORT).toBe(3012);
    expect(loadCatalogConfig({ CATEGORY: 'books', INTERNAL_SECRET: SECRET, PORT: '4000' })).toMatchObject({
      PORT: 4000,
      ADVERTISED_URL: 'http://127.0.0.1:4000',
      MONGO_DB_NAME: 'catalog_books',
    });
  });

  it('stops with a message naming the valid categories', () => {
    for (const env of [{ CATEGORY: 'music' }, {}]) {
      expect(() => loadCatalogConfig({ ...env, INTERNAL_SECRET: SECRET })).toThrow(ConfigError);
      expect(() => loadCatalogConfig({ ...env, INTERNAL_SECRET: SECRET })).toThrow(/CATEGORY: .*books, movies, tvshows/);
    }
  });

  it('names every bad variable at once', () => {
    try {
      loadCatalogConfig({ CATEGORY: 'music', REGISTRY_URL: 'nope', PORT: '0' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/CATEGORY/);
      expect(problems).toMatch(/INTERNAL_SECRET/);
      expect(problems).toMatch(/REGISTRY_URL/);
    }
    expect(() => loadCatalogConfig({ CATEGORY: 'movies', INTERNAL_SECRET: SECRET, PORT: '0' })).toThrow(/ADVERTISED_URL: is required when PORT is 0/);
  });
});
