import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { IMAGE_TYPES, typeOfExtension, type ImageType } from './image-type';

export interface CachedImage {
  file: string;
  size: number;
  type: ImageType;
  /** SHA-256 of the bytes (hex): the strong ETag. */
  digest: string;
}

const TEMPORARY_PREFIX = '.download-';
/** `<sha256 of the key>.<sha256 of the content>.<extension>`: everything the index needs is in the name. */
const CACHED_NAME = new RegExp(`^([0-9a-f]{64})\\.([0-9a-f]{64})\\.(${Object.values(IMAGE_TYPES).join('|')})$`);

const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * The images on disk, bounded by their total size: least recently used first out. The index lives in
 * memory and is rebuilt from the directory on first use (a restart keeps the cache; recency is then the
 * files' write order). Files are written under a temporary name and renamed into place, so a reader never
 * sees half an image, and only files named like cache entries are ever deleted.
 */
export class ImageCache {
  private readonly dir: string;
  private readonly index: LRUCache<string, CachedImage>;
  private ready: Promise<void> | undefined;

  constructor(options: { dir: string; maxBytes: number }) {
    // An entry larger than the bound would be left on disk unindexed: the configuration keeps the bound above the largest image.
    this.dir = path.resolve(options.dir);
    this.index = new LRUCache<string, CachedImage>({
      maxSize: options.maxBytes,
      sizeCalculation: (image) => Math.max(1, image.size),
      // After the index changed: a file the index no longer names is removed (an identical re-download of the
      // same key keeps its file, which has the same name).
      disposeAfter: (image, key) => {
        if (this.index.peek(key)?.file !== image.file) unlink(image.file).catch(() => undefined);
      },
    });
  }

  /** The cached image of this key, marked as the most recently used; undefined on a miss. */
  async get(key: string): Promise<CachedImage | undefined> {
    await this.loaded();
    return this.index.get(keyHash(key));
  }

  /** A fresh name in the cache directory to download into (then given to `store`). */
  async temporaryFile(): Promise<string> {
    await this.loaded();
    return path.join(this.dir, `${TEMPORARY_PREFIX}${randomBytes(12).toString('hex')}`);
  }

  /** Moves a finished download into the cache under `key`, evicting the least recently used beyond the bound. */
  async store(key: string, temporary: string, image: Omit<CachedImage, 'file'>): Promise<CachedImage> {
    await this.loaded();
    const hashed = keyHash(key);
    const file = path.join(this.dir, `${hashed}.${image.digest}.${IMAGE_TYPES[image.type]}`);
    await rename(temporary, file);
    const cached = { ...image, file };
    this.index.set(hashed, cached);
    return cached;
  }

  /** Drops an entry whose file is gone (removed by hand, or by another process sharing the directory). */
  forget(key: string): void {
    this.index.delete(keyHash(key));
  }

  /** Bytes indexed now. */
  async size(): Promise<number> {
    await this.loaded();
    return this.index.calculatedSize;
  }

  // Built on the first image request, not at start-up: a gateway whose clients show no images never reads the
  // directory. A failed build (a directory not writable yet) is tried again by the next request.
  private loaded(): Promise<void> {
    return (this.ready ??= this.rebuild().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    }));
  }

  private async rebuild(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const found: Array<{ key: string; image: CachedImage; mtimeMs: number }> = [];
    for (const name of await readdir(this.dir)) {
      const file = path.join(this.dir, name);
      // Left by a process that stopped mid-download.
      if (name.startsWith(TEMPORARY_PREFIX)) {
        await unlink(file).catch(() => undefined);
        continue;
      }
      const [, key, digest, extension] = CACHED_NAME.exec(name) ?? [];
      const type = extension && typeOfExtension(extension);
      if (!key || !digest || !type) continue;
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      found.push({ key, image: { file, size: info.size, type, digest }, mtimeMs: info.mtimeMs });
    }
    // Oldest first, so the newest end up the most recently used and the bound evicts the oldest.
    found.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const entry of found) this.index.set(entry.key, entry.image);
  }
}
