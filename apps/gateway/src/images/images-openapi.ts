import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from '@mt/contracts';
import { errorResponse, successResponse, type HeaderSpec } from '@mt/endpoints';
import { IMAGE_TYPES } from './image-type';
import { IMAGES_PREFIX } from './image-path';

export const IMAGES_TAG = {
  name: 'images',
  description: "Posters and covers from the metadata providers' image hosts, served from this origin and cached",
};

const HEADERS = { rateLimited: false };
const binary = z.string().openapi({ format: 'binary' });
const CACHE_HEADERS: Record<string, HeaderSpec> = {
  'Cache-Control': { description: '`public, max-age=31536000, immutable`: a provider image path never changes its picture', schema: { type: 'string' } },
  ETag: { description: 'Strong: the SHA-256 of the bytes', schema: { type: 'string' } },
};

/**
 * The image route is answered outside the endpoint declarations (before the API's route decision), so its
 * operation is described here, as the gateway answers it.
 */
export function registerImagesOperation(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: `${IMAGES_PREFIX}{provider}/{path}`,
    operationId: 'imagesGetImage',
    summary: "An image from a provider's image host",
    description:
      "The image at `path` on `provider`'s image host (TMDB's `w500/abc.jpg`, Open Library's `b/id/12345-M.jpg`), fetched once and then answered from the gateway's cache. Only configured providers, only plain path segments (letters, digits, `.`, `-`, `_`; `path` may hold several, separated by `/`), only JPEG, PNG, WebP, GIF and AVIF up to 5 MiB. Public: no credential, no rate limit; the query string is ignored. HEAD is answered too.",
    tags: [IMAGES_TAG.name],
    security: [],
    request: {
      params: z.object({
        provider: z.string().openapi({ description: 'A configured provider: `tmdb`, `openlibrary`', example: 'tmdb' }),
        path: z.string().openapi({ description: "The provider's own image path (may contain `/`)", example: 'w500/kqjL17yufvn9OVLyXYpvtyrFfak.jpg' }),
      }),
    },
    responses: {
      200: successResponse(
        200,
        { description: 'The image, typed by its bytes', content: Object.fromEntries(Object.keys(IMAGE_TYPES).map((type) => [type, binary])), headers: CACHE_HEADERS },
        HEADERS,
      ),
      304: successResponse(304, { description: 'Not modified: If-None-Match named the ETag', headers: CACHE_HEADERS }, HEADERS),
      404: errorResponse(404, HEADERS, 'Unknown or unconfigured provider, a path that is not an image path, or no such image at the provider'),
      405: errorResponse(405, HEADERS),
      408: errorResponse(408, HEADERS),
      500: errorResponse(500, HEADERS),
      502: errorResponse(
        502,
        HEADERS,
        '`provider_unavailable`: the image host failed, timed out (5 s), redirected to another host, is not on a public address, or sent something that is not an allowed image of at most 5 MiB',
      ),
      503: errorResponse(503, HEADERS, 'Too many different images are being downloaded at once; retry shortly'),
    } satisfies Record<number, ResponseConfig>,
  });
}
