import { INTERNAL_PATHS } from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import { deleteRedisPrefix, testRedisPrefix } from '@mt/testing';
import { categoryRecord, sampleRegistration } from '@mt/registry-testing';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { z } from '@mt/contracts';
import { defineEndpoint, reply, scope } from '@mt/endpoints';
import { generatePat } from '@mt/tokens';
import { activePat } from '../../test/upstreams';
import { catalogLikeGroup, startDiscoveryStack, type DiscoveryStack } from '../../test/discovery-stack';
import { TEST_SECRET } from '../../test/keys';
import { dereferenced, redoclyLint, swaggerParserValidate } from '../../test/openapi-checks';
import { DOCS_CONTENT_SECURITY_POLICY } from './docs-page';
import { IMAGES_PREFIX } from '../images';

const prefix = testRedisPrefix('discovery');
const TTL_MS = 1500;
const SWEEP_MS = 200;

type Operation = { operationId: string; summary: string; tags: string[]; security: unknown[]; responses: Record<string, { content?: Record<string, { schema: object }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>>; tags: Array<{ name: string; description: string }> };

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const startedAt = Date.now();
  while (!(await check())) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - startedAt;
}

describe('discovery routes over a real registry, route table and Redis', () => {
  let stack: DiscoveryStack;
  const categoryIds = async () => ((await request(stack.app).get('/api/v1/categories').expect(200)).body as Array<{ id: string }>).map((c) => c.id);
  const openapi = async (): Promise<Document> => (await request(stack.app).get('/api/v1/openapi.json').expect(200)).body;

  beforeAll(async () => {
    stack = await startDiscoveryStack({ prefix, ttlMs: TTL_MS, sweepIntervalMs: SWEEP_MS });
    await stack.addInstance('movies', 'movies-1');
    await stack.addInstance('movies', 'movies-2');
    await stack.addInstance('books', 'books-1');
    await waitFor(async () => stack.routeTable.instances('movies').length === 2 && stack.routeTable.instances('books').length === 1, 2000);
  });
  afterAll(async () => {
    await stack.stop();
    await deleteRedisPrefix(prefix);
  });

  describe('GET /api/v1/categories', () => {
    it('lists the live categories sorted by id, exactly as docs/api.md "Discovering the API" shapes them', async () => {
      const res = await request(stack.app).get('/api/v1/categories').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual([categoryRecord('books'), categoryRecord('movies')]);
    });

    it('shows a registration and a deregistration within 2 s', async () => {
      const { client, server } = await stack.addInstance('tvshows', 'tvshows-1');
      expect(await waitFor(async () => (await categoryIds()).includes('tvshows'), 2000)).toBeLessThan(2000);
      await client.stop();
      await server.close();
      expect(await waitFor(async () => !(await categoryIds()).includes('tvshows'), 2000)).toBeLessThan(2000);
    });

    it('drops a category whose only instance stops beating within the TTL plus one sweep', async () => {
      // An instance that registers once and dies without deregistering.
      await request(stack.registry.url).put(INTERNAL_PATHS.registryInstance('crashing-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET)
        .send(sampleRegistration('tvshows', 'http://127.0.0.1:9')).expect(201);
      const registeredAt = Date.now();
      await waitFor(async () => (await categoryIds()).includes('tvshows'), 2000);
      await waitFor(async () => !(await categoryIds()).includes('tvshows'), TTL_MS + SWEEP_MS + 2000);
      const gone = Date.now() - registeredAt;
      expect(gone).toBeGreaterThanOrEqual(TTL_MS - 100);
      expect(gone).toBeLessThan(TTL_MS + SWEEP_MS + 2000); // a loaded machine delays the sweep
      expect(await categoryIds()).toEqual(['books', 'movies']);
    });

    it('rejects a query parameter with 400 and another method with 405', async () => {
      const bad = await request(stack.app).get('/api/v1/categories?sort=name').expect(400);
      expect(bad.body).toMatchObject({ status: 400, code: 'validation_failed', details: [{ path: 'sort', message: 'unknown query parameter' }] });
      const post = await request(stack.app).post('/api/v1/categories').expect(405);
      expect(post.headers['allow']).toBe('GET, HEAD');
      expect(post.body).toMatchObject({ status: 405, code: 'method_not_allowed' });
    });
  });

  describe('GET /api/v1/openapi.json', () => {
    it('merges the gateway, the probes and every registered service into one valid document', async () => {
      const res = await request(stack.app).get('/api/v1/openapi.json').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-cache');
      const doc = res.body as Document;
      await expect(swaggerParserValidate(doc)).resolves.toBeUndefined();
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/api/v1/categories', '/api/v1/openapi.json', '/api/v1/docs',
          '/livez', '/readyz', '/healthz', '/startupz', '/health',
          '/api/v1/books', '/api/v1/books/{id}', '/api/v1/books/list',
          '/api/v1/movies', '/api/v1/movies/{id}', '/api/v1/movies/list',
        ]),
      );
      expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1/'))).toEqual(['/livez', '/readyz', '/healthz', '/startupz', '/health']);
      expect(doc.tags.map((t) => t.name).filter((t) => t !== 'tvshows')).toEqual(['books', 'movies', 'discovery', 'home', 'images', 'probes']);
      expect(doc.tags.every((t) => t.description.length > 0)).toBe(true);
      expect(Object.keys(doc.components['securitySchemes']!)).toEqual(['bearerAuth']);
    });

    it('documents every error status of every operation', async () => {
      const doc = await openapi();
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          const statuses = Object.keys(operation.responses);
          const where = `${method.toUpperCase()} ${path}`;
          if (path.startsWith(IMAGES_PREFIX)) {
            // Answered before authentication and rate limiting, and a slow image host is a 502: no 401, 429 or 504;
            // a query parameter is a 400 as on every operation.
            expect({ where, statuses }).toEqual({ where, statuses: ['200', '304', '400', '404', '405', '408', '500', '502', '503'] });
          } else if (path.startsWith('/api/v1/')) {
            expect({ where, statuses }).toEqual({ where, statuses: expect.arrayContaining(['401', '408', '429', '500', '502', '503', '504']) });
            if (operation.security.length) expect({ where, statuses }).toEqual({ where, statuses: expect.arrayContaining(['403']) });
          } else if (path !== '/livez') {
            expect({ where, statuses }).toEqual({ where, statuses: ['200', '503'] });
          }
        }
      }
    });

    it('passes the Redocly recommended ruleset (with the project configuration) without errors or warnings', async () => {
      expect(await redoclyLint(await openapi())).toEqual([]);
    });

    it('describes the real responses of the gateway routes and probes', async () => {
      const doc = (await dereferenced(await openapi())) as unknown as Document;
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      const check = async (path: string, url = path) => {
        const res = await request(stack.app).get(url);
        const schema = doc.paths[path]!['get']!.responses[String(res.status)]?.content?.['application/json']?.schema;
        expect({ url, status: res.status, documented: schema !== undefined }).toEqual({ url, status: res.status, documented: true });
        const validate = ajv.compile(schema!);
        expect({ url, valid: validate(res.body), errors: validate.errors }).toEqual({ url, valid: true, errors: null });
      };
      for (const probe of ['/livez', '/readyz', '/healthz', '/startupz', '/health']) await check(probe);
      await check('/api/v1/categories');
      await check('/api/v1/categories', '/api/v1/categories?unknown=1');
      await check('/api/v1/openapi.json');
    });

    it('serves the cached document until the route table changes, and keeps a service whose instances are all gone', async () => {
      const first = await request(stack.app).get('/api/v1/openapi.json').expect(200);
      const second = await request(stack.app).get('/api/v1/openapi.json').expect(200);
      expect(second.text).toBe(first.text);

      const { client, server } = await stack.addInstance('tvshows', 'tvshows-doc');
      await waitFor(async () => stack.routeTable.instances('tvshows').length === 1, 2000);
      expect((await openapi()).paths['/api/v1/tvshows/{id}']).toBeDefined();
      await client.stop();
      await server.close();
      await waitFor(async () => stack.routeTable.instances('tvshows').length === 0, 2000);
      // A client generated now still gets the category's types; the category itself is not listed as live.
      expect((await openapi()).paths['/api/v1/tvshows/{id}']).toBeDefined();
      expect(await categoryIds()).not.toContain('tvshows');
      const unavailable = await request(stack.app).get('/api/v1/tvshows/0123456789abcdef01234567').expect(503);
      expect(unavailable.body).toMatchObject({ code: 'service_unavailable', error: 'no live instance of tvshows service' });
    });
  });

  describe("a service's own endpoint, learned from its manifest alone", () => {
    it('is routed with its scope: 200 with it, 403 without, 401 anonymous, 405 for another method', async () => {
      const seen: DiscoveryStack['seen'] = [];
      const base = catalogLikeGroup('games', seen, 'games-1');
      const withStats = {
        ...base,
        endpoints: [
          ...base.endpoints,
          defineEndpoint({
            name: 'get play stats',
            method: 'GET',
            path: '/list/play-stats',
            access: scope('list:read'),
            summary: 'Hours played',
            responses: { 200: { description: 'Hours', schema: z.object({ hours: z.number() }) } },
            handle: () => reply.ok({ hours: 42 }),
          }),
        ],
      };
      const { client, server } = await stack.addInstance('games', 'games-1', withStats);
      try {
        await waitFor(async () => stack.routeTable.instances('games').length === 1, 2000);
        const reader = generatePat();
        const writer = generatePat();
        stack.auth.tokens.set(reader, activePat('u-games', ['list:read']));
        stack.auth.tokens.set(writer, activePat('u-games', ['list:write']));
        await request(stack.app).get('/api/v1/games/list/play-stats').set('Authorization', `Bearer ${reader}`).expect(200, { hours: 42 });
        const forbidden = await request(stack.app).get('/api/v1/games/list/play-stats').set('Authorization', `Bearer ${writer}`).expect(403);
        expect(forbidden.body).toMatchObject({ code: 'forbidden', error: "token lacks the 'list:read' scope" });
        await request(stack.app).get('/api/v1/games/list/play-stats').expect(401);
        const wrongMethod = await request(stack.app).post('/api/v1/games/list/play-stats').set('Authorization', `Bearer ${stack.jwt()}`).expect(405);
        expect(wrongMethod.headers['allow']).toBe('GET, HEAD');
        expect((await openapi()).paths['/api/v1/games/list/play-stats']!['get']!.operationId).toBe('gamesGetPlayStats');
      } finally {
        await client.stop();
        await server.close();
      }
    });
  });

  describe('with careless fragments (generic names colliding across categories)', () => {
    const ownPrefix = testRedisPrefix('discovery-fixture');
    let careless: DiscoveryStack;
    const openapi = async (): Promise<Document> => (await request(careless.app).get('/api/v1/openapi.json').expect(200)).body;
    beforeAll(async () => {
      careless = await startDiscoveryStack({ prefix: ownPrefix, fragments: 'careless' });
      await careless.addInstance('movies', 'movies-1');
      await careless.addInstance('books', 'books-1');
      await waitFor(async () => careless.routeTable.instances('movies').length === 1 && careless.routeTable.instances('books').length === 1, 2000);
    });
    afterAll(async () => {
      await careless.stop();
      await deleteRedisPrefix(ownPrefix);
    });

    it('keeps identical shared components once and renames a conflicting one, references included', async () => {
      const doc = await openapi();
      const schemas = doc.components['schemas']!;
      expect(Object.keys(schemas).filter((name) => name.startsWith('Error')).sort()).toEqual(['Error', 'ErrorDetail']);
      // books merged first keeps `Entry`; movies' different `Entry` becomes `Entry_movies`.
      expect(schemas['Entry']).toMatchObject({ properties: { isbn: expect.anything() } });
      expect(schemas['Entry_movies']).toMatchObject({ properties: { director: expect.anything() } });
      const moviesGet = doc.paths['/api/v1/movies/{id}']!['get']!;
      expect(moviesGet.responses['200']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Entry_movies' });
      const operationIds = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
      expect(new Set(operationIds).size).toBe(operationIds.length);
      expect(doc.paths['/api/v1/books']!['get']!.operationId).toBe('listEntries');
      expect(doc.paths['/api/v1/movies']!['get']!.operationId).toBe('moviesListEntries');
    });

    it('still passes swagger-parser and the Redocly recommended ruleset without errors', async () => {
      const doc = await openapi();
      await expect(swaggerParserValidate(doc)).resolves.toBeUndefined();
      expect((await redoclyLint(doc)).filter((p) => p.severity === 'error')).toEqual([]);
    });
  });

  describe('GET /api/v1/docs', () => {
    it('serves the page with its own same-origin CSP and only same-origin assets', async () => {
      const res = await request(stack.app).get('/api/v1/docs').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
      const urls = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(urls.length).toBeGreaterThanOrEqual(4);
      for (const url of urls) expect(url).toMatch(/^\/api\/v1\/docs\/[\w.-]+\?v=[\d.]+$/);
      // Other gateway responses keep the API's strict policy.
      const categories = await request(stack.app).get('/api/v1/categories');
      expect(categories.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    });

    it('serves the Swagger UI assets and its configuration from the gateway itself', async () => {
      const bundle = await request(stack.app).get('/api/v1/docs/swagger-ui-bundle.js').expect(200);
      expect(bundle.headers['content-type']).toMatch(/javascript/);
      expect(bundle.headers['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
      expect(bundle.headers['cache-control']).toBe('public, max-age=86400');
      const css = await request(stack.app).get('/api/v1/docs/swagger-ui.css').expect(200);
      expect(css.headers['content-type']).toMatch(/^text\/css/);
      const init = await request(stack.app).get('/api/v1/docs/init.js').expect(200);
      expect(init.text).toContain('validatorUrl: null');
      expect(init.text).toContain('persistAuthorization: false');
      // The document itself, so the page renders without another round trip; always revalidated.
      const served = await request(stack.app).get('/api/v1/openapi.json').expect(200);
      expect(init.text).toContain(`spec: ${served.text}`);
      expect(init.text).toContain("getIn(['operation', 'x-order'])");
      expect(init.headers['cache-control']).toBe('no-cache');
    });

    it('answers 404 for files it does not serve and 405 for other methods', async () => {
      for (const file of ['index.html', 'swagger-initializer.js', '..%2Fpackage.json', 'swagger-ui-bundle.js.map']) {
        const res = await request(stack.app).get(`/api/v1/docs/${file}`).expect(404);
        expect(res.body).toMatchObject({ status: 404, code: 'not_found' });
      }
      const post = await request(stack.app).post('/api/v1/docs').expect(405);
      expect(post.headers['allow']).toBe('GET, HEAD');
    });
  });

  it('keeps serving categories from the last good table while the registry is stopped', async () => {
    await stack.registry.stop();
    await expect(stack.routeTable.refresh()).resolves.toBe(false);
    expect(await categoryIds()).toEqual(['books', 'movies']);
    expect((await request(stack.app).get('/api/v1/categories')).body[1]).toEqual(categoryRecord('movies'));
  });
});
