import { apiSegments, resolveAccess, type AccessDecision } from './access-policy';

const known = (id: string) => ['movies', 'books'].includes(id);
const decide = (method: string, path: string) => resolveAccess(method, path, known);
const route = (upstream: unknown, template: string, access: unknown): AccessDecision =>
  ({ kind: 'route', upstream, template, access }) as AccessDecision;
const PUBLIC = { kind: 'public' };
const scope = (name: string) => ({ kind: 'scope', scope: name });
const AUTH = { kind: 'auth' };
const MOVIES = { kind: 'category', categoryId: 'movies' };

describe('access policy', () => {
  it.each([
    ['POST', '/api/v1/auth/register', route(AUTH, '/api/v1/auth/register', PUBLIC)],
    ['POST', '/api/v1/auth/login', route(AUTH, '/api/v1/auth/login', PUBLIC)],
    ['GET', '/api/v1/auth/me', route(AUTH, '/api/v1/auth/me', scope('profile:read'))],
    ['HEAD', '/api/v1/auth/me', route(AUTH, '/api/v1/auth/me', scope('profile:read'))],
    ['PUT', '/api/v1/auth/me', route(AUTH, '/api/v1/auth/me', scope('account'))],
    ['DELETE', '/api/v1/auth/me', route(AUTH, '/api/v1/auth/me', scope('account'))],
    ['PUT', '/api/v1/auth/password', route(AUTH, '/api/v1/auth/password', scope('account'))],
    ['GET', '/api/v1/auth/tokens', route(AUTH, '/api/v1/auth/tokens', scope('account'))],
    ['POST', '/api/v1/auth/tokens', route(AUTH, '/api/v1/auth/tokens', scope('account'))],
    ['DELETE', '/api/v1/auth/tokens/abc', route(AUTH, '/api/v1/auth/tokens/{id}', scope('account'))],
    ['GET', '/api/v1/movies', route(MOVIES, '/api/v1/{category}', PUBLIC)],
    ['GET', '/api/v1/movies/', route(MOVIES, '/api/v1/{category}', PUBLIC)],
    ['POST', '/api/v1/movies', route(MOVIES, '/api/v1/{category}', scope('catalog:write'))],
    ['GET', '/api/v1/movies/665f1c', route(MOVIES, '/api/v1/{category}/{id}', PUBLIC)],
    ['PATCH', '/api/v1/movies/665f1c', route(MOVIES, '/api/v1/{category}/{id}', scope('catalog:write'))],
    ['GET', '/api/v1/movies/list', route(MOVIES, '/api/v1/{category}/list', scope('list:read'))],
    ['GET', '/api/v1/movies/LIST', route(MOVIES, '/api/v1/{category}/list', scope('list:read'))],
    ['POST', '/api/v1/movies/list', route(MOVIES, '/api/v1/{category}/list', scope('list:write'))],
    ['GET', '/api/v1/movies/list/665f1c', route(MOVIES, '/api/v1/{category}/list/{item_id}', scope('list:read'))],
    ['PATCH', '/api/v1/movies/list/665f1c', route(MOVIES, '/api/v1/{category}/list/{item_id}', scope('list:write'))],
    ['DELETE', '/api/v1/movies/list/665f1c', route(MOVIES, '/api/v1/{category}/list/{item_id}', scope('list:write'))],
    ['POST', '/api/v1/movies/bulk-status', route(MOVIES, '/api/v1/{category}/bulk-status', scope('list:write'))],
    ['POST', '/api/v1/movies/bulk-delete', route(MOVIES, '/api/v1/{category}/bulk-delete', scope('list:write'))],
    ['GET', '/api/v1/categories', route({ kind: 'gateway' }, '/api/v1/categories', PUBLIC)],
    ['GET', '/api/v1/openapi.json', route({ kind: 'gateway' }, '/api/v1/openapi.json', PUBLIC)],
    ['GET', '/api/v1/docs', route({ kind: 'gateway' }, '/api/v1/docs', PUBLIC)],
    ['GET', '/api/v1/docs/swagger-ui.css', route({ kind: 'gateway' }, '/api/v1/docs/{asset}', PUBLIC)],
  ])('%s %s', (method, path, expected) => {
    expect(decide(method, path)).toEqual(expected);
  });

  it.each([
    ['DELETE', '/api/v1/auth/login', ['POST']],
    ['GET', '/api/v1/auth/tokens/abc', ['DELETE']],
    ['PUT', '/api/v1/movies', ['GET', 'POST', 'HEAD']],
    ['DELETE', '/api/v1/movies/abc', ['GET', 'PATCH', 'HEAD']],
    ['GET', '/api/v1/movies/bulk-delete', ['POST']],
    ['OPTIONS', '/api/v1/movies/list', ['GET', 'POST', 'HEAD']],
    ['TRACE', '/api/v1/auth/me', ['GET', 'PUT', 'DELETE', 'HEAD']],
    ['POST', '/api/v1/docs', ['GET', 'HEAD']],
  ])('%s %s is a 405 allowing %j', (method, path, allow) => {
    expect(decide(method, path)).toEqual({ kind: 'method_not_allowed', allow });
  });

  it.each([
    '/',
    '/internal/jwks',
    '/api/v1',
    '/api/v1/',
    '/api/v2/movies',
    '/api/v1/podcasts',
    '/api/v1/Movies',
    '/api/v1/auth',
    '/api/v1/auth/me/extra',
    '/api/v1/auth/tokens/a/b',
    '/api/v1/movies/list/a/b',
    '/api/v1/movies//list',
    '/api/v1/movies/./list',
    '/api/v1/movies/%2E%2e/auth/me',
    '/api/v1/auth/../internal/jwks',
    '/api/v1/movies/%E0%A4%A',
    '/api/v1/categories/extra',
  ])('%s is a 404 whatever the method', (path) => {
    expect(decide('GET', path).kind).toBe('not_found');
    expect(decide('DELETE', path).kind).toBe('not_found');
  });

  it('lets the gateway own categories, docs and auth even if a category had such a name', () => {
    const everything = () => true;
    expect(resolveAccess('GET', '/api/v1/categories', everything)).toMatchObject({ upstream: { kind: 'gateway' } });
    expect(resolveAccess('GET', '/api/v1/docs', everything)).toMatchObject({ upstream: { kind: 'gateway' } });
    expect(resolveAccess('POST', '/api/v1/auth/login', everything)).toMatchObject({ upstream: { kind: 'auth' } });
  });

  it('splits API paths and refuses dot and empty segments', () => {
    expect(apiSegments('/api/v1/movies/list/')).toEqual(['movies', 'list']);
    expect(apiSegments('/API/V1/movies')).toEqual(['movies']);
    expect(apiSegments('/api/v1/a//b')).toBeUndefined();
    expect(apiSegments('/api/v1/%2e')).toBeUndefined();
    expect(apiSegments('api/v1/movies')).toBeUndefined();
  });
});
