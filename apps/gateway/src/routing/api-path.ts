/**
 * Path segments after /api/v1, or undefined when the path is not an API path we route. One trailing slash
 * is tolerated (Express does too); empty, `.` and `..` segments (also percent-encoded) are refused so that
 * no normalising hop downstream can turn a public path into another one (e.g. `/internal/...`).
 */
export function apiSegments(path: string): string[] | undefined {
  const segments = path.split('/');
  if (segments[0] !== '') return undefined;
  segments.shift();
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  const [api, version, ...rest] = segments;
  if (api?.toLowerCase() !== 'api' || version?.toLowerCase() !== 'v1') return undefined;
  for (const segment of rest) {
    if (segment === '') return undefined;
    // Only a segment with an escape can decode to something else (most have none: no decoding then).
    let decoded = segment;
    if (segment.includes('%')) {
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
    }
    if (decoded === '.' || decoded === '..') return undefined;
  }
  return rest;
}

/** `/api/v1/movies/list/{item_id}` → `['movies', 'list', '{item_id}']`. */
export const templateSegments = (template: string): string[] => template.split('/').slice(3);
