import { z } from '@mt/contracts';
import { defineEndpoint, INTERNAL, PUBLIC, reply, scope, type EndpointGroup } from './endpoint';
import { routeManifest } from './route-manifest';

const endpoint = (name: string, method: 'GET' | 'POST', path: string, access = PUBLIC as Parameters<typeof defineEndpoint>[0]['access']) =>
  defineEndpoint({ name, method, path, access, summary: name, params: path.includes('{id}') ? z.strictObject({ id: z.string() }) : undefined, responses: { 200: { description: 'ok' } }, handle: () => reply.ok({}) });

const group = (endpoints: EndpointGroup['endpoints']): EndpointGroup => ({ namespace: 'books', mount: '/api/v1/books', tags: [{ name: 'books', description: 'Books' }], endpoints });

describe('route manifest', () => {
  it('lists every public endpoint with its full path, access and body limit, and leaves internal ones out', () => {
    const manifest = routeManifest([
      group([endpoint('search', 'GET', '/'), endpoint('add', 'POST', '/list', scope('list:write')), endpoint('get', 'GET', '/{id}')]),
      { namespace: 'internal', mount: '/internal', tags: [{ name: 'i', description: 'i' }], endpoints: [endpoint('ping', 'GET', '/ping', INTERNAL)] },
    ]);
    expect(manifest.routes).toEqual([
      { method: 'GET', path: '/api/v1/books', access: { kind: 'public' }, body_limit: 1048576 },
      { method: 'POST', path: '/api/v1/books/list', access: { kind: 'scope', scope: 'list:write' }, body_limit: 1048576 },
      { method: 'GET', path: '/api/v1/books/{id}', access: { kind: 'public' }, body_limit: 1048576 },
    ]);
  });

  it('gives the same digest whatever the declaration order, and another one when a route changes', () => {
    const a = routeManifest([group([endpoint('search', 'GET', '/'), endpoint('get', 'GET', '/{id}')])]);
    const b = routeManifest([group([endpoint('get', 'GET', '/{id}'), endpoint('search', 'GET', '/')])]);
    const c = routeManifest([group([endpoint('search', 'GET', '/'), endpoint('get', 'GET', '/{id}'), endpoint('add', 'POST', '/list', scope('list:write'))])]);
    expect(a.digest).toBe(b.digest);
    expect(c.digest).not.toBe(a.digest);
  });
});
