import { ProviderReplay } from '@mt/testing';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestGateway, type TestGateway } from '../../test/gateway';
import { rawRequest, type RawResponse } from '../../test/http-client';
import { pngOfSize, SMALL_PNG, startImageHost, type ImageHost } from '../../test/image-host';
import { createSigningKey } from '../../test/keys';
import { startHttpServer, type RunningServer } from '../../test/servers';
import { StaticRouteTable } from '../../test/static-route-table';
import { startFakeAuthService, type FakeAuthService } from '../../test/upstreams';
import { IMAGE_CONTENT_SECURITY_POLICY } from './images.route';

/** GET through a real socket; the body as bytes (rawRequest decodes it as text). */
async function getImage(baseUrl: string, urlPath: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${urlPath}`, { headers });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

const expectRefused = (res: RawResponse, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json()).toMatchObject({ status, code, request_id: expect.any(String) });
};

describe('the image route /api/v1/images/<provider>/<path>', () => {
  let auth: FakeAuthService;
  let host: ImageHost;
  let otherHost: ImageHost;
  const routeTable = new StaticRouteTable();
  const cacheDirs: string[] = [];
  const opened: Array<{ gateway: TestGateway; server: RunningServer }> = [];

  const newCacheDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'image-cache-'));
    cacheDirs.push(dir);
    return dir;
  };

  /** A gateway on a real socket whose TMDB images come from `imageUrl` (the test host unless said otherwise). */
  async function startGateway(env: Record<string, string> = {}): Promise<{ url: string; cacheDir: string; stop: () => Promise<void> }> {
    const cacheDir = env['IMAGE_CACHE_DIR'] ?? newCacheDir();
    const gateway = await startTestGateway({
      routeTable,
      authUrl: auth.url,
      env: {
        TMDB_API_KEY: 'test-key',
        TMDB_IMAGE_URL: `${host.url}/t/p`,
        OPENLIBRARY_ENABLED: 'false',
        IMAGE_ALLOW_PRIVATE_HOSTS: 'true',
        IMAGE_CACHE_DIR: cacheDir,
        ...env,
      },
    });
    const server = await startHttpServer(gateway.app);
    const entry = { gateway, server };
    opened.push(entry);
    return {
      url: server.url,
      cacheDir,
      stop: async () => {
        opened.splice(opened.indexOf(entry), 1);
        await server.close();
        await gateway.close();
      },
    };
  }

  beforeAll(async () => {
    auth = await startFakeAuthService([createSigningKey('k1')]);
    otherHost = await startImageHost();
    host = await startImageHost({ redirectTarget: otherHost.url, slowMs: 400 });
  });

  afterAll(async () => {
    for (const { gateway, server } of opened.splice(0)) {
      await server.close();
      await gateway.close();
    }
    await Promise.all([auth?.close(), host?.close(), otherHost?.close()]);
    for (const dir of cacheDirs) rmSync(dir, { recursive: true, force: true });
  });

  describe('serving and caching', () => {
    it('serves an allowed image with long-lived cache headers, nosniff and an image CSP', async () => {
      const gateway = await startGateway();
      const res = await getImage(gateway.url, '/api/v1/images/tmdb/w500/poster.png');
      expect(res.status).toBe(200);
      expect(res.body.equals(SMALL_PNG)).toBe(true);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('content-length')).toBe(String(SMALL_PNG.length));
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe(IMAGE_CONTENT_SECURITY_POLICY);
      await gateway.stop();
    });

    it('answers a second request from its cache without asking the image host again, and 304 to a matching ETag', async () => {
      const gateway = await startGateway();
      host.put('/t/p/w500/cached-once.png', pngOfSize(3000, 0x01));
      const first = await getImage(gateway.url, '/api/v1/images/tmdb/w500/cached-once.png');
      const second = await getImage(gateway.url, '/api/v1/images/tmdb/w500/cached-once.png');
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body.equals(first.body)).toBe(true);
      expect(host.hits('/t/p/w500/cached-once.png')).toBe(1);
      const revalidated = await getImage(gateway.url, '/api/v1/images/tmdb/w500/cached-once.png', { 'if-none-match': first.headers.get('etag')! });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
      expect(host.hits('/t/p/w500/cached-once.png')).toBe(1);
      await gateway.stop();
    });

    it('keeps its cache across a restart: the new process serves the image without asking the image host', async () => {
      const before = await startGateway();
      host.put('/t/p/w500/restart.png', pngOfSize(5000, 0x02));
      expect((await getImage(before.url, '/api/v1/images/tmdb/w500/restart.png')).status).toBe(200);
      await before.stop();
      const after = await startGateway({ IMAGE_CACHE_DIR: before.cacheDir });
      const res = await getImage(after.url, '/api/v1/images/tmdb/w500/restart.png');
      expect(res.status).toBe(200);
      expect(res.body.equals(pngOfSize(5000, 0x02))).toBe(true);
      expect(host.hits('/t/p/w500/restart.png')).toBe(1);
      await after.stop();
    });

    it('serves a recently served image from memory, even once its file is gone', async () => {
      const gateway = await startGateway();
      host.put('/t/p/w500/hot.png', pngOfSize(2500, 0x03));
      expect((await getImage(gateway.url, '/api/v1/images/tmdb/w500/hot.png')).status).toBe(200);
      for (const name of readdirSync(gateway.cacheDir)) unlinkSync(path.join(gateway.cacheDir, name));
      const res = await getImage(gateway.url, '/api/v1/images/tmdb/w500/hot.png');
      expect(res.status).toBe(200);
      expect(res.body.equals(pngOfSize(2500, 0x03))).toBe(true);
      expect(host.hits('/t/p/w500/hot.png')).toBe(1);
      await gateway.stop();
    });

    it('fetches an image again when its cached file was removed behind its back', async () => {
      const gateway = await startGateway({ IMAGE_MEMORY_CACHE_BYTES: '0' });
      host.put('/t/p/w500/removed.png', pngOfSize(2600, 0x04));
      expect((await getImage(gateway.url, '/api/v1/images/tmdb/w500/removed.png')).status).toBe(200);
      for (const name of readdirSync(gateway.cacheDir)) unlinkSync(path.join(gateway.cacheDir, name));
      const res = await getImage(gateway.url, '/api/v1/images/tmdb/w500/removed.png');
      expect(res.status).toBe(200);
      expect(res.body.equals(pngOfSize(2600, 0x04))).toBe(true);
      expect(host.hits('/t/p/w500/removed.png')).toBe(2);
      expect(readdirSync(gateway.cacheDir)).toHaveLength(1);
      await gateway.stop();
    });

    it('removes a download left half-written by a stopped process and never touches files that are not its own', async () => {
      const cacheDir = newCacheDir();
      writeFileSync(path.join(cacheDir, 'notes.txt'), 'an operator pointed the cache at a directory in use');
      writeFileSync(path.join(cacheDir, '.download-0123456789abcdef01234567'), pngOfSize(1000));
      const gateway = await startGateway({ IMAGE_CACHE_DIR: cacheDir, IMAGE_CACHE_MAX_BYTES: String(5 * 1024 * 1024), IMAGE_MEMORY_CACHE_BYTES: '0' });
      for (let n = 0; n < 7; n += 1) {
        host.put(`/t/p/original/foreign-${n}.png`, pngOfSize(1024 * 1024, n));
        expect((await getImage(gateway.url, `/api/v1/images/tmdb/original/foreign-${n}.png`)).status).toBe(200);
      }
      expect(existsSync(path.join(cacheDir, 'notes.txt'))).toBe(true);
      expect(readdirSync(cacheDir).filter((name) => name.startsWith('.download-'))).toEqual([]);
      expect(readdirSync(cacheDir).filter((name) => name.endsWith('.png'))).toHaveLength(5);
      await gateway.stop();
    });

    it('answers 500 while its cache directory cannot be created, and serves once it can, without a restart', async () => {
      const parent = newCacheDir();
      const blocker = path.join(parent, 'not-a-directory');
      writeFileSync(blocker, 'a file where the cache directory should go');
      const gateway = await startGateway({ IMAGE_CACHE_DIR: path.join(blocker, 'cache') });
      expectRefused(await rawRequest(gateway.url, { path: '/api/v1/images/tmdb/w500/poster.png' }), 500, 'internal');
      unlinkSync(blocker);
      const res = await getImage(gateway.url, '/api/v1/images/tmdb/w500/poster.png');
      expect(res.status).toBe(200);
      expect(res.body.equals(SMALL_PNG)).toBe(true);
      await gateway.stop();
    });

    it('answers HEAD with the headers only', async () => {
      const gateway = await startGateway();
      const res = await rawRequest(gateway.url, { method: 'HEAD', path: '/api/v1/images/tmdb/w500/poster.png' });
      expect(res.status).toBe(200);
      expect(res.headers['content-length']).toBe(String(SMALL_PNG.length));
      expect(res.text).toBe('');
      await gateway.stop();
    });

    it('follows a redirect that stays on the image host', async () => {
      const gateway = await startGateway();
      const res = await getImage(gateway.url, '/api/v1/images/tmdb/w500/same-host.png');
      expect(res.status).toBe(200);
      expect(res.body.equals(SMALL_PNG)).toBe(true);
      await gateway.stop();
    });

    it('downloads an uncached image once for many concurrent requests', async () => {
      const gateway = await startGateway();
      const answers = await Promise.all(Array.from({ length: 20 }, () => getImage(gateway.url, '/api/v1/images/tmdb/w500/slow.png')));
      expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));
      expect(new Set(answers.map((res) => res.body.toString('hex'))).size).toBe(1);
      expect(host.hits('/t/p/w500/slow.png')).toBe(1);
      await gateway.stop();
    });

    it('keeps its directory under the configured bound, evicting the least recently used image', async () => {
      const bound = 5 * 1024 * 1024;
      // Memory off: the disk alone decides what is served without the image host.
      const gateway = await startGateway({ IMAGE_CACHE_MAX_BYTES: String(bound), IMAGE_MEMORY_CACHE_BYTES: '0' });
      const image = (n: number) => `/t/p/original/evict-${n}.png`;
      for (let n = 0; n < 8; n += 1) host.put(image(n), pngOfSize(1024 * 1024, n));
      // 0 is read again after 1..3, so 1 is the oldest when room runs out.
      for (const n of [0, 1, 2, 3, 0, 4, 5, 6, 7]) expect((await getImage(gateway.url, `/api/v1/images/tmdb${image(n).slice(4)}`)).status).toBe(200);
      const files = readdirSync(gateway.cacheDir);
      const total = files.reduce((sum, name) => sum + statSync(path.join(gateway.cacheDir, name)).size, 0);
      expect(total).toBeLessThanOrEqual(bound);
      expect(files.length).toBe(5);
      expect(host.hits(image(0))).toBe(1);
      await getImage(gateway.url, `/api/v1/images/tmdb${image(1).slice(4)}`);
      expect(host.hits(image(1))).toBe(2);
      await gateway.stop();
    });

    it('shrinks a directory above a lowered bound when it restarts', async () => {
      const before = await startGateway();
      for (let n = 0; n < 7; n += 1) {
        host.put(`/t/p/original/shrink-${n}.png`, pngOfSize(1024 * 1024, n));
        expect((await getImage(before.url, `/api/v1/images/tmdb/original/shrink-${n}.png`)).status).toBe(200);
      }
      await before.stop();
      const after = await startGateway({ IMAGE_CACHE_DIR: before.cacheDir, IMAGE_CACHE_MAX_BYTES: String(5 * 1024 * 1024) });
      // The index is rebuilt on the first image request.
      expect((await getImage(after.url, '/api/v1/images/tmdb/original/shrink-6.png')).status).toBe(200);
      expect(host.hits('/t/p/original/shrink-6.png')).toBe(1);
      const total = readdirSync(before.cacheDir).reduce((sum, name) => sum + statSync(path.join(before.cacheDir, name)).size, 0);
      expect(total).toBeLessThanOrEqual(5 * 1024 * 1024);
      await after.stop();
    });
  });

  describe('refusals', () => {
    let gateway: Awaited<ReturnType<typeof startGateway>>;
    beforeAll(async () => {
      gateway = await startGateway();
    });
    afterAll(() => gateway.stop());

    it.each([
      ['an unknown provider', '/api/v1/images/imgur/w500/poster.png'],
      ['a provider that is not configured', '/api/v1/images/openlibrary/b/id/1-M.jpg'],
      ['a provider name from the object prototype', '/api/v1/images/__proto__/w500/poster.png'],
      ['no image path', '/api/v1/images/tmdb'],
      ['no image path after the provider', '/api/v1/images/tmdb/'],
      ['a parent segment', '/api/v1/images/tmdb/w500/../../../etc/passwd'],
      ['an encoded parent segment', '/api/v1/images/tmdb/w500/%2e%2e/%2e%2e/etc/passwd'],
      ['an encoded slash', '/api/v1/images/tmdb/w500%2f..%2f..%2fsecret.png'],
      ['an encoded backslash', '/api/v1/images/tmdb/w500%5c..%5csecret.png'],
      ['a backslash', '/api/v1/images/tmdb/w500\\..\\secret.png'],
      ['an absolute URL', '/api/v1/images/tmdb/http://169.254.169.254/latest/meta-data'],
      ['an encoded absolute URL', '/api/v1/images/tmdb/https%3A%2F%2Fevil.example%2Fx.png'],
      ['a protocol-relative path', '/api/v1/images/tmdb//evil.example/x.png'],
      ['user info', '/api/v1/images/tmdb/@evil.example/x.png'],
      ['an encoded query', '/api/v1/images/tmdb/w500/poster.png%3Fredirect=http://evil.example'],
      ['an encoded fragment', '/api/v1/images/tmdb/w500/poster.png%23x'],
      ['a hidden file', '/api/v1/images/tmdb/w500/.env'],
    ])('answers 404 to %s and asks no image host', async (_label, urlPath) => {
      const before = host.requests().length;
      const res = await rawRequest(gateway.url, { path: urlPath });
      expectRefused(res, 404, 'not_found');
      expect(host.requests().length).toBe(before);
      expect(otherHost.requests().length).toBe(0);
    });

    it('never forwards the query string to the image host', async () => {
      const res = await rawRequest(gateway.url, { path: '/api/v1/images/tmdb/w500/poster.png?url=http://evil.example/&x=1' });
      expect(res.status).toBe(200);
      expect(host.requests().filter((url) => url.includes('?'))).toEqual([]);
    });

    it('answers 405 with Allow to other methods', async () => {
      const res = await rawRequest(gateway.url, { method: 'DELETE', path: '/api/v1/images/tmdb/w500/poster.png' });
      expectRefused(res, 405, 'method_not_allowed');
      expect(res.headers['allow']).toBe('GET, HEAD');
    });

    it('answers 404 when the image host has no such image', async () => {
      expectRefused(await rawRequest(gateway.url, { path: '/api/v1/images/tmdb/w500/missing.png' }), 404, 'not_found');
    });

    it.each([
      ['a page that is not an image', 'page.jpg'],
      ['an SVG (it can carry scripts)', 'svg.svg'],
      ['markup labelled image/jpeg', 'disguised.jpg'],
      ['an image over 5 MiB by its Content-Length', 'huge.png'],
      ['an image over 5 MiB sent without Content-Length', 'huge-unannounced.png'],
      ['a redirect to another host', 'away.png'],
      ['endless same-host redirects', 'loop.png'],
      ['a server error', 'broken.png'],
    ])('answers 502 provider_unavailable to %s and caches nothing', async (_label, file) => {
      const res = await rawRequest(gateway.url, { path: `/api/v1/images/tmdb/w500/${file}` });
      expectRefused(res, 502, 'provider_unavailable');
      expect(readdirSync(gateway.cacheDir).filter((name) => !name.startsWith('.download-') && name.includes(file))).toEqual([]);
      expect(otherHost.requests()).toEqual([]);
    });

    it('reads no more than a Content-Length that understates the body', async () => {
      const res = await getImage(gateway.url, '/api/v1/images/tmdb/w500/understated.png');
      expect(res.status).toBe(200);
      expect(res.body.length).toBe(1000);
    });

    it('leaves no temporary files behind after refused downloads', () => {
      expect(readdirSync(gateway.cacheDir).filter((name) => name.startsWith('.download-'))).toEqual([]);
    });
  });

  describe('addresses that are not public', () => {
    it.each([
      ['loopback by address', 'http://127.0.0.1:{port}/t/p'],
      ['loopback by name', 'http://localhost:{port}/t/p'],
      ['IPv6 loopback', 'http://[::1]:{port}/t/p'],
      ['a private network', 'http://10.0.0.1:{port}/t/p'],
      ['the link-local metadata address', 'http://169.254.169.254/t/p'],
    ])('refuses an image host on %s with 502 unless private hosts are allowed', async (_label, base) => {
      const gateway = await startGateway({ TMDB_IMAGE_URL: base.replace('{port}', String(host.port)), IMAGE_ALLOW_PRIVATE_HOSTS: 'false' });
      const before = host.requests().length;
      const res = await rawRequest(gateway.url, { path: '/api/v1/images/tmdb/w500/poster.png' });
      expectRefused(res, 502, 'provider_unavailable');
      expect(host.requests().length).toBe(before);
      await gateway.stop();
    });

    it('refuses by default: private hosts must be allowed explicitly', async () => {
      const gateway = await startGateway({ IMAGE_ALLOW_PRIVATE_HOSTS: '' });
      expectRefused(await rawRequest(gateway.url, { path: '/api/v1/images/tmdb/w500/poster.png' }), 502, 'provider_unavailable');
      await gateway.stop();
    });
  });

  it('answers 503 with Retry-After beyond 16 different downloads at once, and serves those 16', async () => {
    // Slow enough that all twenty requests arrive while the first downloads still run, even on a busy machine.
    const slowHost = await startImageHost({ slowMs: 3000 });
    const gateway = await startGateway({ TMDB_IMAGE_URL: `${slowHost.url}/t/p` });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => rawRequest(gateway.url, { path: `/api/v1/images/tmdb/slow/${n}.png` })),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(16);
    const refused = answers.filter((res) => res.status === 503);
    expect(refused).toHaveLength(4);
    for (const res of refused) {
      expectRefused(res, 503, 'service_unavailable');
      expect(res.headers['retry-after']).toBe('1');
    }
    expect(slowHost.requests()).toHaveLength(16);
    await gateway.stop();
    await slowHost.close();
  });

  it("serves the provider replay server's TMDB posters and Open Library covers, as the catalog's poster paths name them", async () => {
    const replay = await new ProviderReplay().start();
    const gateway = await startGateway({ ...replay.env, OPENLIBRARY_ENABLED: 'true' });
    for (const imagePath of ['/api/v1/images/tmdb/w500/vfrQk5IPloGg1v9Rzbh2Eg3VGyM.jpg', '/api/v1/images/openlibrary/b/id/12345-M.jpg']) {
      const res = await getImage(gateway.url, imagePath);
      expect({ imagePath, status: res.status, type: res.headers.get('content-type') }).toEqual({ imagePath, status: 200, type: 'image/jpeg' });
    }
    await gateway.stop();
    await replay.close();
  });

  it('answers 502 when the image host is slower than the download deadline', async () => {
    const gateway = await startGateway({ IMAGE_FETCH_TIMEOUT_MS: '150' });
    const started = Date.now();
    const res = await rawRequest(gateway.url, { path: '/api/v1/images/tmdb/w500/slow.png' });
    expectRefused(res, 502, 'provider_unavailable');
    expect(Date.now() - started).toBeLessThan(2000);
    await gateway.stop();
  });
});
