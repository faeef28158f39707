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

/**
 * Memory first (the most recently served images' bytes), then the disk cache; a miss downloads once however many requests wait for it (they share the one download), and
 * at most `maxDownloads` different images are downloaded at once — beyond, 503, so a flood of distinct
 * paths cannot open unbounded connections to the image hosts.
 */
export class ImageService {
  private readonly cache: ImageCache;
  private readonly limits: DownloadLimits;
  private readonly maxDownloads: number;
  private readonly hot: LRUCache<string, ServedImage> | undefined;
  private readonly hosts: Map<string, string>;
  private readonly downloads = new Map<string, Promise<CachedImage>>();

  constructor(deps: {
    sources: ImageSources;
    cache: ImageCache;
    limits: DownloadLimits;
    maxDownloads: number;
    /** Bytes of images kept in memory as well, so the most requested are served without touching the disk; 0: none. */
    memoryBytes: number;
  }) {
    this.cache = deps.cache;
    this.limits = deps.limits;
    this.maxDownloads = deps.maxDownloads;
    this.hot =
      deps.memoryBytes > 0
        ? new LRUCache<string, ServedImage>({ maxSize: deps.memoryBytes, sizeCalculation: (served) => Math.max(1, served.body.length) })
        : undefined;
    this.hosts = new Map(Object.entries(deps.sources));
  }

  /** The image at `path` on `provider`'s image host, from the cache or downloaded into it first. */
  async image(provider: string, path: string): Promise<ServedImage> {
    const base = this.hosts.get(provider);
    if (!base) throw errors.notFound(`no image provider named ${provider}`);
    const key = `${provider}/${path}`;
    const inMemory = this.hot?.get(key);
    if (inMemory) return inMemory;
    const cached = await this.cache.get(key);
    const served = (cached && (await this.read(key, cached))) ?? (await this.read(key, await this.download(key, new URL(`${base}/${path}`))));
    if (!served) throw errors.providerUnavailable('the image could not be kept; retry');
    this.hot?.set(key, served);
    return served;
  }

  private download(key: string, url: URL): Promise<CachedImage> {
    const pending = this.downloads.get(key);
    if (pending) return pending;
    if (this.downloads.size >= this.maxDownloads)
      throw new AppError('service_unavailable', 'too many images are being fetched at once; retry shortly', { headers: { 'Retry-After': '1' } });
    const started = (async () => {
      const temporary = await this.cache.temporaryFile();
      const downloaded = await downloadImage(url, temporary, this.limits);
      return this.cache.store(key, temporary, downloaded);
    })().finally(() => this.downloads.delete(key));
    this.downloads.set(key, started);
    return started;
  }

  private async read(key: string, image: CachedImage): Promise<ServedImage | undefined> {
    try {
      return { image, body: await readFile(image.file) };
    } catch {
      // Evicted (or removed) between the lookup and the read: fetched again.
      this.cache.forget(key);
      return undefined;
    }
  }
}
