import type { RequestHandler } from 'express';
import type { GatewayConfig } from '../config';
import { ImageCache } from './image-cache';
import { MAX_CONCURRENT_IMAGE_DOWNLOADS, MAX_IMAGE_BYTES, MAX_IMAGE_REDIRECTS } from './image-limits';
import { ImageService } from './image.service';
import { imagesRoute } from './images.route';

export { IMAGE_CONTENT_SECURITY_POLICY } from './images.route';
export { IMAGES_PREFIX } from './image-path';

/** The image route with its cache and downloads, as the configuration says. */
export function imagesFromConfig(config: GatewayConfig): RequestHandler {
  return imagesRoute(
    new ImageService({
      sources: config.imageHosts,
      cache: new ImageCache({ dir: config.IMAGE_CACHE_DIR, maxBytes: config.IMAGE_CACHE_MAX_BYTES }),
      limits: {
        timeoutMs: config.IMAGE_FETCH_TIMEOUT_MS,
        maxBytes: MAX_IMAGE_BYTES,
        maxRedirects: MAX_IMAGE_REDIRECTS,
        allowPrivateHosts: config.IMAGE_ALLOW_PRIVATE_HOSTS,
      },
      maxDownloads: MAX_CONCURRENT_IMAGE_DOWNLOADS,
      memoryBytes: config.IMAGE_MEMORY_CACHE_BYTES,
    }),
  );
}
