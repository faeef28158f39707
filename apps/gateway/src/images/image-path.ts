/** Where the route lives; everything after it is `<provider>/<path>`. */
export const IMAGES_PREFIX = '/api/v1/images/';

/**
 * One segment of a provider's image path as the providers spell them (`w500`, `kqjL17yufvn9OVLyXYpvtyrFfak.jpg`,
 * `12345-M.jpg`): letters, digits, dot, dash, underscore, never starting with a dot. Anything else — `..`,
 * percent-escapes (`%2e`, `%2f`, `%5c`), `\`, `@`, `:`, an empty segment — is not an image path, so no
 * decoding is ever needed and nothing can climb out of the image host's path or name another host.
 */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
const MAX_SEGMENTS = 8;

export interface ImageRequestPath {
  provider: string;
  /** The provider's own image path, segments joined by `/`, without a leading slash. */
  path: string;
}

/**
 * Splits the raw request path (as received, not decoded) into provider and image path; undefined when it is
 * not one an allow-listed image host could have (the route answers 404).
 */
export function parseImagePath(requestPath: string): ImageRequestPath | undefined {
  if (!requestPath.startsWith(IMAGES_PREFIX)) return undefined;
  const segments = requestPath.slice(IMAGES_PREFIX.length).split('/');
  if (segments.length < 2 || segments.length > MAX_SEGMENTS + 1) return undefined;
  if (!segments.every((segment) => SEGMENT.test(segment))) return undefined;
  const [provider = '', ...rest] = segments;
  return { provider, path: rest.join('/') };
}
