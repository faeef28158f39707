/**
 * Where to go after logging in: only a path of this app (`/movies/list?status=watching`), never another
 * origin (`//evil.example`, `https://…`, `/\evil`) — the `next` parameter is in a URL anyone can craft.
 */
export function safeNext(next: string | null | undefined, fallback = '/'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  if ([...next].some((c) => c.charCodeAt(0) < 0x20)) return fallback;
  if (/^\/(login|register)(\?|$)/.test(next)) return fallback;
  return next;
}

export const loginPath = (next: string) => `/login?next=${encodeURIComponent(next)}`;
