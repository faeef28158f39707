/**
 * Paths that carry a credential in a segment: a scrobble hook's URL is `/api/v1/scrobble/<server>/<secret>`
 * (media servers cannot send a header). Every path that is logged or echoed in an error message goes through
 * here; the hook and inbox routes beside it carry ids, not secrets, and are kept.
 */
const SECRET_IN_PATH = /^(\/+api\/+v1\/+scrobble\/+(?!(?:hooks|unmatched)(?:\/|$))[^/]*\/+)[^/?#]+/i;

export const redactPath = (path: string): string => path.replace(SECRET_IN_PATH, '$1[redacted]');
