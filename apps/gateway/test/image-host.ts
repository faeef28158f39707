import type { IncomingMessage, ServerResponse } from 'node:http';
import { startHttpServer, type RunningServer } from './servers';

/** The eight bytes every PNG starts with: enough for the gateway to recognise one. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG-looking image of `size` bytes; `fill` makes different images differ. */
export const pngOfSize = (size: number, fill = 0x2a) => Buffer.concat([PNG_SIGNATURE, Buffer.alloc(size - PNG_SIGNATURE.length, fill)]);

export const SMALL_PNG = pngOfSize(2048);

export interface ImageHost extends RunningServer {
  /** Requests received per path. */
  hits: (path: string) => number;
  /** Every request received, in order. */
  requests: () => string[];
  /** Serve these bytes (as this type) at `path` from now on. */
  put: (path: string, body: Buffer, type?: string) => void;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A provider image host on 127.0.0.1: fixed images, plus paths that misbehave (a page that is not an
 * image, one that lies about its type, oversized ones with and without Content-Length, redirects, a slow
 * one, and any path under `/t/p/slow/`). `redirectTarget` is where `/t/p/w500/away.png` redirects (another origin).
 */
export async function startImageHost(options: { redirectTarget?: string; slowMs?: number } = {}): Promise<ImageHost> {
  const seen: string[] = [];
  const images = new Map<string, { body: Buffer; type: string }>([['/t/p/w500/poster.png', { body: SMALL_PNG, type: 'image/png' }]]);
  const special = new Map<string, Handler>([
    ['/t/p/w500/page.jpg', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><script>alert(1)</script></html>')],
    ['/t/p/w500/disguised.jpg', (_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['/t/p/w500/svg.svg', (_req, res) => res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['/t/p/w500/huge.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(pngOfSize(6 * 1024 * 1024))],
    [
      '/t/p/w500/huge-unannounced.png',
      (_req, res) => {
        // No Content-Length (chunked): only counting the bytes as they come shows the size.
        res.writeHead(200, { 'content-type': 'image/png', 'transfer-encoding': 'chunked' });
        const chunk = pngOfSize(256 * 1024);
        for (let sent = 0; sent < 6 * 1024 * 1024; sent += chunk.length) res.write(chunk);
        res.end();
      },
    ],
    [
      '/t/p/w500/understated.png',
      (_req, res) => {
        // Content-Length claims a small image; the body goes on past the limit.
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '1000' });
        res.end(pngOfSize(6 * 1024 * 1024));
      },
    ],
    ['/t/p/w500/missing.png', (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')],
    ['/t/p/w500/broken.png', (_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('oops')],
    ['/t/p/w500/same-host.png', (_req, res) => res.writeHead(302, { location: '/t/p/w500/poster.png' }).end()],
    ['/t/p/w500/loop.png', (_req, res) => res.writeHead(302, { location: '/t/p/w500/loop.png' }).end()],
    ['/t/p/w500/away.png', (_req, res) => res.writeHead(302, { location: `${options.redirectTarget ?? 'http://example.com'}/t/p/w500/poster.png` }).end()],
    [
      '/t/p/w500/slow.png',
      (_req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(pngOfSize(4096, 0x11)), options.slowMs ?? 300);
      },
    ],
  ]);
  const handle: Handler = (req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    seen.push(req.url ?? '');
    const image = images.get(path);
    if (image) return void res.writeHead(200, { 'content-type': image.type, 'content-length': image.body.length }).end(image.body);
    const handler = special.get(path) ?? (path.startsWith('/t/p/slow/') ? special.get('/t/p/w500/slow.png') : undefined);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such image');
  };
  const running = await startHttpServer(handle);
  return {
    ...running,
    hits: (path) => seen.filter((url) => url.split('?')[0] === path).length,
    requests: () => [...seen],
    put: (path, body, type = 'image/png') => void images.set(path, { body, type }),
  };
}
