/** The largest image the route serves (docs/api.md "Images"): larger is a 502 `provider_unavailable`. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Same-origin redirects an image host may send before the download is refused. */
export const MAX_IMAGE_REDIRECTS = 3;

/** Different images downloaded at once; beyond, 503 until one finishes. */
export const MAX_CONCURRENT_IMAGE_DOWNLOADS = 16;
