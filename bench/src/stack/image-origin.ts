import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A poster as TMDB serves it for a list row (`w342`): a JPEG of that typical size. */
export const POSTER_PATH = '/t/p/w342/bench-poster.jpg';
export const POSTER_BYTES = 40 * 1024;

export interface ImageOrigin {
  /** The image host's base for the gateway's TMDB_IMAGE_URL. */
  tmdbImageUrl: string;
  /** The directory holding the poster at POSTER_PATH: what nginx serves in the comparison. */
  root: string;
  /** Requests the origin received: the gateway's cache should make it one. */
  requests: () => number;
  stop: () => Promise<void>;
}

/**
 * A stand-in for TMDB's image host, in this process: it is asked once (the gateway then answers from its
 * cache), so it costs the load generator nothing during the measurement.
 */
export async function startImageOrigin(): Promise<ImageOrigin> {
  const root = mkdtempSync(path.join(tmpdir(), 'mt-bench-images-'));
  const file = path.join(root, POSTER_PATH);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(POSTER_BYTES - 4, 0x5a)]));
  const body = readFileSync(file);
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    if (req.url !== POSTER_PATH) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    tmdbImageUrl: `http://127.0.0.1:${port}/t/p`,
    root,
    requests: () => requests,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** What the gateway needs to serve the origin's images (a private address, allowed for the benchmark only). */
export const imageOriginEnv = (origin: ImageOrigin, cacheDir: string): NodeJS.ProcessEnv => ({
  TMDB_API_KEY: 'bench-unused',
  TMDB_IMAGE_URL: origin.tmdbImageUrl,
  IMAGE_ALLOW_PRIVATE_HOSTS: 'true',
  IMAGE_CACHE_DIR: cacheDir,
});
