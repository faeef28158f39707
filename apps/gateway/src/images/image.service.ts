import { AppError, errors } from '@mt/errors';
import { readFile } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import { downloadImage, type DownloadLimits } from './image-download';
import type { CachedImage, ImageCache } from './image-cache';
import type { ImageSources } from '@mt/providers';

export interface ServedImage {
  image: CachedImage;
  body: Buffer;
}

export interface ImageService {
  /** The image at `path` on `provider`'s image host, from the cache or downloaded into it first. */
  image(provider: string, path: string): Promise<ServedImage>;
}

/**
 * Memory first (the most recently served images' bytes), then the disk cache; a miss downloads once however many requests wait for it (they share the one download), and
 * at most `maxDownloads` different images are downloaded at once — beyond, 503, so a flood of distinct
 * paths cannot open unbounded connections to the image hosts.
 */
export function createImageService(deps: {
  sources: ImageSources;
  cache: ImageCache;
  limits: DownloadLimits;
  maxDownloads: number;
  /** Bytes of images kept in memory as well, so the most requested are served without touching the disk; 0: none. */
  memoryBytes: number;
}): ImageService {
  const { cache, limits, maxDownloads } = deps;
  const hot =
    deps.memoryBytes > 0
      ? new LRUCache<string, ServedImage>({ maxSize: deps.memoryBytes, sizeCalculation: (served) => Math.max(1, served.body.length) })
      : undefined;
  const hosts = new Map(Object.entries(deps.sources));
  const downloads = new Map<string, Promise<CachedImage>>();

  const download = (key: string, url: URL): Promise<CachedImage> => {
    const pending = downloads.get(key);
    if (pending) return pending;
    if (downloads.size >= maxDownloads)
      throw new AppError('service_unavailable', 'too many images are being fetched at once; retry shortly', { headers: { 'Retry-After': '1' } });
    const started = (async () => {
      const temporary = await cache.temporaryFile();
      const downloaded = await downloadImage(url, temporary, limits);
      return cache.store(key, temporary, downloaded);
    })().finally(() => downloads.delete(key));
    downloads.set(key, started);
    return started;
  };

  const read = async (key: string, image: CachedImage): Promise<ServedImage | undefined> => {
    try {
      return { image, body: await readFile(image.file) };
    } catch {
      // Evicted (or removed) between the lookup and the read: fetched again.
      cache.forget(key);
      return undefined;
    }
  };

  return {
    async image(provider, path) {
      const base = hosts.get(provider);
      if (!base) throw errors.notFound(`no image provider named ${provider}`);
      const key = `${provider}/${path}`;
      const inMemory = hot?.get(key);
      if (inMemory) return inMemory;
      const cached = await cache.get(key);
      const served = (cached && (await read(key, cached))) ?? (await read(key, await download(key, new URL(`${base}/${path}`))));
      if (!served) throw errors.providerUnavailable('the image could not be kept; retry');
      hot?.set(key, served);
      return served;
    },
  };
}
