import { get } from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../test/gateway';
import { rawRequest } from '../../test/http-client';
import { createSigningKey } from '../../test/keys';
import { startHttpServer, type RunningServer } from '../../test/servers';
import { StaticRouteTable } from '../../test/static-route-table';
import { startEchoUpstream, startFakeAuthService, type EchoUpstream, type FakeAuthService } from '../../test/upstreams';
import { WEB_CONTENT_SECURITY_POLICY } from './web-app';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});\n`;

function writeBuild(dir: string): void {
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dir, '.env'), 'SECRET=1');
  writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(SCRIPT));
  writeFileSync(path.join(dir, 'assets', 'style-Zz99Yy88.css'), 'body{margin:0}');
}

/** The bytes as they came over the wire (supertest would decompress them). */
const getBytes = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });

const expectJsonError = (res: { status: number; headers: Record<string, unknown>; body: unknown }, status: number) => {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toMatchObject({ status, error: expect.any(String), request_id: expect.any(String) });
};

describe('the web app served by the gateway at /', () => {
  let auth: FakeAuthService;
  let movies: EchoUpstream;
  let gateway: TestGateway;
  let unbuilt: TestGateway;
  let server: RunningServer;
  let buildDir: string;
  let emptyDir: string;

  beforeAll(async () => {
    buildDir = mkdtempSync(path.join(tmpdir(), 'web-build-'));
    emptyDir = mkdtempSync(path.join(tmpdir(), 'web-empty-'));
    writeBuild(buildDir);
    [auth, movies] = await Promise.all([startFakeAuthService([createSigningKey('k1')]), startEchoUpstream('movies-1')]);
    const routeTable = new StaticRouteTable().setInstances('movies', [{ id: 'm1', url: movies.url }]);
    gateway = await startTestGateway({ routeTable, authUrl: auth.url, env: { WEB_DIR: buildDir } });
    unbuilt = await startTestGateway({ routeTable, authUrl: auth.url, env: { WEB_DIR: emptyDir } });
    server = await startHttpServer(gateway.app);
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all([gateway?.close(), unbuilt?.close()]);
    await Promise.all([auth?.close(), movies?.close()]);
    rmSync(buildDir, { recursive: true, force: true });
    rmSync(emptyDir, { recursive: true, force: true });
  });

  describe('pages', () => {
    it.each(['/', '/index.html', '/movies', '/movies/list', '/books/0123456789abcdef01234567', '/login?next=%2Fmovies'])(
      'answers %s with index.html, revalidated on every load, under the same-origin CSP',
      async (url) => {
        const res = await request(gateway.app).get(url).set('Accept', HTML);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toBe(INDEX);
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.headers['content-security-policy']).toBe(WEB_CONTENT_SECURITY_POLICY);
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      },
    );

    it('uses a CSP that allows no inline script or style and no other origin', () => {
      const directives = Object.fromEntries(
        WEB_CONTENT_SECURITY_POLICY.split(';').map((d) => {
          const [name, ...values] = d.trim().split(/\s+/);
          return [name, values.join(' ')];
        }),
      );
      expect(directives).toMatchObject({
        'default-src': "'self'",
        'script-src': "'self'",
        'style-src': "'self'",
        'connect-src': "'self'",
        'frame-ancestors': "'none'",
        'object-src': "'none'",
        'base-uri': "'none'",
      });
      expect(WEB_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
    });

    it('answers HEAD for a client-side route like GET, without a body', async () => {
      const res = await request(gateway.app).head('/tokens').set('Accept', HTML);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text ?? '').toBe('');
    });

    it('keeps the JSON 404 for a path nobody serves when the client does not ask for HTML', async () => {
      for (const accept of ['*/*', 'application/json']) {
        const res = await request(gateway.app).get('/internal/jwks').set('Accept', accept);
        expectJsonError(res, 404);
      }
    });

    it('serves the app at / to a client that does not ask for JSON (curl), and the JSON 404 to one that does', async () => {
      for (const accept of [undefined, '*/*', 'text/plain']) {
        const call = request(gateway.app).get('/');
        const res = await (accept ? call.set('Accept', accept) : call.unset('Accept'));
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
      }
      expectJsonError(await request(gateway.app).get('/').set('Accept', 'application/json'), 404);
    });

    it('leaves other methods to the API: POST / is the JSON 404', async () => {
      const res = await request(gateway.app).post('/').set('Accept', HTML).set('Content-Type', 'application/json').send('{}');
      expectJsonError(res, 404);
    });
  });

  describe('assets', () => {
    it('serves a hashed asset with a year-long immutable cache', async () => {
      const res = await rawRequest(server.url, { path: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': 'identity' } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['vary']).toBe('Accept-Encoding');
      expect(res.headers['content-security-policy']).toBe(WEB_CONTENT_SECURITY_POLICY);
      expect(res.text).toBe(SCRIPT);
    });

    it.each([
      ['br, gzip', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
      ['gzip;q=1, br;q=0', 'gzip', gunzipSync],
    ] as const)('sends the pre-compressed variant the client takes (Accept-Encoding: %s → %s)', async (accept, encoding, decode) => {
      const res = await getBytes(`${server.url}/assets/index-Ab12Cd34.js`, { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decode(res.body).toString('utf8')).toBe(SCRIPT);
    });

    it('serves an asset without a compressed variant as it is', async () => {
      const res = await request(gateway.app).get('/assets/style-Zz99Yy88.css').set('Accept-Encoding', 'br, gzip');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/css/);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.text).toBe('body{margin:0}');
    });

    it('revalidates an unhashed file on every load', async () => {
      const res = await request(gateway.app).get('/favicon.svg');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
    });

    it.each(['/assets/index-Gone0000.js', '/app.webmanifest', '/robots.txt'])(
      'answers a missing file %s with the JSON 404, never with the page',
      async (url) => {
        const res = await request(gateway.app).get(url).set('Accept', HTML);
        expectJsonError(res, 404);
      },
    );

    it.each(['/.env', '/assets/..%2f.env', '/assets/%2e%2e/.env', '/assets/..%2f..%2f..%2fetc%2fpasswd'])(
      'never serves a file outside the build or a dotfile: %s',
      async (rawPath) => {
        const res = await rawRequest(server.url, { path: rawPath, headers: { accept: HTML } });
        expect(res.text).not.toContain('SECRET=1');
        expect(res.text).not.toContain('root:');
        expect(res.status).toBeGreaterThanOrEqual(400);
      },
    );

    it('labels its metrics by kind, never by raw path', async () => {
      await request(gateway.app).get('/assets/index-Ab12Cd34.js');
      await request(gateway.app).get('/some/client/route').set('Accept', HTML);
      // The metrics port renders this registry (the public port answers 404 for /metrics).
      const metrics = await gateway.metrics.registry.metrics();
      expect(metrics).toContain('route="/assets/*"');
      expect(metrics).toContain('route="/ (web app)"');
      expect(metrics).not.toContain('index-Ab12Cd34');
      expect(metrics).not.toContain('/some/client/route');
    });
  });

  describe('the API, probes and docs stay as they were', () => {
    it.each(['/api/v1/nowhere', '/API/V1/nowhere', '/api', '/api/'])('answers %s with the JSON 404 even to a browser', async (url) => {
      const res = await request(gateway.app).get(url).set('Accept', HTML);
      expectJsonError(res, 404);
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    });

    it('proxies API requests as before', async () => {
      const res = await request(gateway.app).get('/api/v1/movies').set('Accept', HTML);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    });

    it.each(['/livez', '/readyz', '/health'])('answers the probe %s, not the page', async (url) => {
      const res = await request(gateway.app).get(url).set('Accept', HTML);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toHaveProperty('status');
    });

    it('serves the docs page with its own policy', async () => {
      const res = await request(gateway.app).get('/api/v1/docs').set('Accept', HTML);
      expect(res.status).toBe(200);
      expect(res.text).toContain('swagger-ui');
    });
  });

  describe('when the web app has not been built', () => {
    it('answers a page load with 404 and a short HTML note pointing at the build and the API', async () => {
      const res = await request(unbuilt.app).get('/').set('Accept', HTML);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toBe(WEB_CONTENT_SECURITY_POLICY);
      expect(res.text).toContain('npm run build');
      expect(res.text).toContain('/api/v1/docs');
    });

    it('answers an asset request with the JSON 404', async () => {
      expectJsonError(await request(unbuilt.app).get('/assets/index-Ab12Cd34.js'), 404);
    });
  });
});
