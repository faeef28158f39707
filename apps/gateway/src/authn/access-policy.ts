import type { Scope } from '@mt/tokens';

/**
 * The one table of the public API's shape (API.md §2–6): which (method, path) exists, where it goes, and
 * whether it is public or needs a scope. The gateway is the first line of the scope checks; the services
 * re-check from the signed identity.
 */
export type Access = { kind: 'public' } | { kind: 'scope'; scope: Scope };

export type Upstream = { kind: 'auth' } | { kind: 'category'; categoryId: string } | { kind: 'gateway' };

export type AccessDecision =
  | { kind: 'route'; upstream: Upstream; template: string; access: Access }
  | { kind: 'not_found'; message: string }
  | { kind: 'method_not_allowed'; allow: string[] };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type MethodTable = Partial<Record<Method, Access>>;

interface RouteShape {
  /** Literal segments match case-insensitively (as Express routes do); `{name}` matches any one segment. */
  segments: string[];
  methods: MethodTable;
}

const PUBLIC: Access = { kind: 'public' };
const scope = (name: Scope): Access => ({ kind: 'scope', scope: name });

/** Under /api/v1/auth. */
const AUTH_ROUTES: RouteShape[] = [
  { segments: ['register'], methods: { POST: PUBLIC } },
  { segments: ['login'], methods: { POST: PUBLIC } },
  { segments: ['me'], methods: { GET: scope('profile:read'), PUT: scope('account'), DELETE: scope('account') } },
  { segments: ['password'], methods: { PUT: scope('account') } },
  { segments: ['tokens'], methods: { GET: scope('account'), POST: scope('account') } },
  { segments: ['tokens', '{id}'], methods: { DELETE: scope('account') } },
];

/** Under /api/v1/{category}. First match wins, so the literal segments come before `{id}`. */
const CATEGORY_ROUTES: RouteShape[] = [
  { segments: [], methods: { GET: PUBLIC, POST: scope('catalog:write') } },
  { segments: ['list'], methods: { GET: scope('list:read'), POST: scope('list:write') } },
  {
    segments: ['list', '{item_id}'],
    methods: { GET: scope('list:read'), PATCH: scope('list:write'), DELETE: scope('list:write') },
  },
  { segments: ['bulk-status'], methods: { POST: scope('list:write') } },
  { segments: ['bulk-delete'], methods: { POST: scope('list:write') } },
  { segments: ['{id}'], methods: { GET: PUBLIC, PATCH: scope('catalog:write') } },
];

/** The gateway's own documents (served by the discovery router), under /api/v1. */
const GATEWAY_READ: MethodTable = { GET: PUBLIC };
const GATEWAY_DOCUMENTS = new Set(['categories', 'openapi.json']);
const DOCS = 'docs';
const AUTH = 'auth';

const notFound = (path: string): AccessDecision => ({ kind: 'not_found', message: `no route for ${path}` });

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
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    if (decoded === '.' || decoded === '..') return undefined;
  }
  return rest;
}

function matchShape(shapes: RouteShape[], segments: string[]): RouteShape | undefined {
  return shapes.find(
    (shape) =>
      shape.segments.length === segments.length &&
      shape.segments.every((expected, index) =>
        expected.startsWith('{') ? true : expected === segments[index]?.toLowerCase(),
      ),
  );
}

/** HEAD is GET without a body, with GET's access; anything not listed is a 405 naming what is. */
function decideMethod(
  method: string,
  methods: MethodTable,
  upstream: Upstream,
  template: string,
): AccessDecision {
  const effective = (method === 'HEAD' ? 'GET' : method) as Method;
  const access = methods[effective];
  if (access) return { kind: 'route', upstream, template, access };
  const allow = Object.keys(methods);
  if (allow.includes('GET')) allow.push('HEAD');
  return { kind: 'method_not_allowed', allow };
}

const templateOf = (prefix: string, shape: RouteShape) =>
  [prefix, ...shape.segments].join('/');

/**
 * Decides where a request goes and what it needs. `isKnownCategory` answers from the live route table;
 * an unknown category is a 404 whatever the method.
 */
export function resolveAccess(
  method: string,
  path: string,
  isKnownCategory: (categoryId: string) => boolean,
): AccessDecision {
  const segments = apiSegments(path);
  if (!segments || segments.length === 0) return notFound(path);
  const [first, ...rest] = segments as [string, ...string[]];
  const head = first.toLowerCase();

  if (head === DOCS) {
    const template = rest.length === 0 ? '/api/v1/docs' : '/api/v1/docs/{asset}';
    return decideMethod(method, GATEWAY_READ, { kind: 'gateway' }, template);
  }
  if (GATEWAY_DOCUMENTS.has(head) && rest.length === 0) {
    return decideMethod(method, GATEWAY_READ, { kind: 'gateway' }, `/api/v1/${head}`);
  }
  if (head === AUTH) {
    const shape = matchShape(AUTH_ROUTES, rest);
    if (!shape) return notFound(path);
    return decideMethod(method, shape.methods, { kind: 'auth' }, templateOf('/api/v1/auth', shape));
  }
  // Category ids are lower-case by contract (CategoryRecordSchema), so the segment is compared as sent.
  if (!isKnownCategory(first)) return { kind: 'not_found', message: `unknown category '${first}'` };
  const shape = matchShape(CATEGORY_ROUTES, rest);
  if (!shape) return notFound(path);
  return decideMethod(
    method,
    shape.methods,
    { kind: 'category', categoryId: first },
    templateOf('/api/v1/{category}', shape),
  );
}
