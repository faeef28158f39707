/**
 * A stand-in for the gateway in component tests: routes answered by the test, every request recorded with
 * its body, the API's error payload for anything else. (Browser tests in apps/web-e2e use the real stack.)
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Parsed JSON, or the text of any other body (an uploaded CSV). */
  body: unknown;
  contentType: string | null;
  authorization: string | null;
  signal: AbortSignal;
}

type Handler = (request: RecordedRequest, match: RegExpMatchArray) => Response | Promise<Response>;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const apiError = (status: number, code: string, error: string, extra: Record<string, unknown> = {}) =>
  json(status, { error, status, code, timestamp: new Date().toISOString(), request_id: `req-${status}`, ...extra });

/** JSON bodies parsed; anything else (an uploaded CSV, a file that claims to be JSON but is not) as its text. */
function parseBody(text: string, contentType: string | null): unknown {
  if (!contentType?.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  private readonly routes: Array<{ method: string; pattern: RegExp; handler: Handler }> = [];

  on(method: string, path: string | RegExp, handler: Handler): this {
    const pattern = typeof path === 'string' ? new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : path;
    this.routes.unshift({ method, pattern, handler });
    return this;
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    const recorded: RecordedRequest = {
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      body: text ? parseBody(text, request.headers.get('content-type')) : undefined,
      contentType: request.headers.get('content-type'),
      authorization: request.headers.get('authorization'),
      signal: request.signal,
    };
    this.requests.push(recorded);
    for (const route of this.routes) {
      const match = route.method === request.method ? url.pathname.match(route.pattern) : null;
      if (match) return route.handler(recorded, match);
    }
    return apiError(404, 'not_found', `no route for ${request.method} ${url.pathname}`);
  };

  sent(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
  }
}

export const CATEGORIES = [
  { id: 'books', name: 'books', display_name: 'Books', description: 'Books', endpoint: '/api/v1/books', icon: 'book' },
  { id: 'movies', name: 'movies', display_name: 'Movies', description: 'Films', endpoint: '/api/v1/movies', icon: 'film' },
];

export const USER = { id: '65f1c0ffee0000000000aaaa', username: 'ada', email: 'ada@example.com', role: 'user' as const, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' };

export const page = <T>(data: T[], extra: Record<string, unknown> = {}) => ({ data, page: 1, limit: 20, total: data.length, total_pages: data.length ? 1 : 0, ...extra });

export const listEntry = (id: string, title: string, status = 'plan_to_watch', extra: Record<string, unknown> = {}) => ({
  item_id: id,
  item: { id, title, year: 1999 },
  status,
  score: null,
  progress: null,
  notes: null,
  started_at: null,
  finished_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...extra,
});

/**
 * The gateway's `GET /api/v1/entries/{category}/{id}`, answered from the test's own routes for the catalog
 * entry and the list entry, as the gateway gathers it from the category's endpoints.
 */
function entryPageRoute(server: FakeServer): Handler {
  return async (request, [, category, id]) => {
    const headers: Record<string, string> = request.authorization ? { authorization: request.authorization } : {};
    const item = await server.fetch(`http://test/api/v1/${category}/${id}`, { headers });
    if (!item.ok) return item;
    const body = (await item.json()) as { id: string };
    if (!request.authorization) return json(200, { item: body, list_entry: null });
    const mine = await server.fetch(`http://test/api/v1/${category}/list/${body.id}`, { headers });
    if (!mine.ok && mine.status !== 404) return mine;
    return json(200, { item: body, list_entry: mine.ok ? await mine.json() : null });
  };
}

/** A server that knows the categories (every screen needs them) and the gateway's entry page. */
export const baseServer = () => {
  const server = new FakeServer().on('GET', '/api/v1/categories', () => json(200, CATEGORIES));
  return server.on('GET', /^\/api\/v1\/entries\/([a-z][a-z0-9-]*)\/([^/]+)$/, entryPageRoute(server));
};
