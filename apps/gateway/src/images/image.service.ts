import { errors } from '@mt/errors';
import { readFile } from 'node:fs/promises';
import { downloadImage, type DownloadLimits } from './image-download';
import type { CachedImage, ImageCache } from './image-cache';
import type { ImageSources } from './image-sources';

export interface ServedImage {
  image: CachedImage;
  body: Buffer;
}

export interface ImageService {
  /** The image at `path` on `provider`'s image host, from the cache or downloaded into it first. */
  image(provider: string, path: string): Promise<ServedImage>;
}

/**
 * Cache first; a miss downloads once however many requests wait for it (they share the one download), and
 * at most `maxDownloads` different images are downloaded at once — beyond, 503, so a flood of distinct
 * paths cannot open unbounded connections to the image hosts.
 */
export function createImageService(deps: {
  sources: ImageSources;
  cache: ImageCache;
  limits: DownloadLimits;
  maxDownloads: number;
}): ImageService {
  const { cache, limits, maxDownloads } = deps;
  const hosts = new Map(Object.entries(deps.sources));
  const downloads = new Map<string, Promise<CachedImage>>();

  const download = (key: string, url: URL): Promise<CachedImage> => {
    const pending = downloads.get(key);
    if (pending) return pending;
    if (downloads.size >= maxDownloads) throw errors.serviceUnavailable('too many images are being fetched; retry shortly');
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
      const cached = await cache.get(key);
      const hit = cached && (await read(key, cached));
      if (hit) return hit;
      const stored = await download(key, new URL(`${base}/${path}`));
      const fresh = await read(key, stored);
      if (!fresh) throw errors.providerUnavailable('the image could not be kept; retry');
      return fresh;
    },
  };
}
