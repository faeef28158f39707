import { z } from '@mt/contracts';
import { defineEndpoint, PUBLIC, reply, scope, type EndpointGroup } from './endpoint';
import { endpointsOpenApi } from './endpoint-openapi';

const group: EndpointGroup = {
  namespace: 'books',
  mount: '/api/v1/books',
  tags: [{ name: 'books', description: 'Books' }],
  endpoints: [
    defineEndpoint({
      name: 'get entry',
      method: 'GET',
      path: '/{id}',
      access: PUBLIC,
      summary: 'One entry',
      params: z.strictObject({ id: z.string() }),
      responses: { 200: { description: 'The entry', schema: z.object({ id: z.string() }).openapi('BookThing') } },
      handle: () => reply.ok({}),
    }),
    defineEndpoint({
      name: 'add list entry',
      method: 'POST',
      path: '/list',
      access: scope('list:write'),
      summary: 'Add',
      body: z.strictObject({ item_id: z.string() }),
      responses: { 201: { description: 'Added' } },
      errors: [409],
      handle: () => reply.created({}),
    }),
    defineEndpoint({
      name: 'export list',
      method: 'GET',
      path: '/list/export',
      access: scope('list:read'),
      summary: 'Export',
      responses: { 200: { description: 'The file', content: { 'application/json': z.object({ format: z.string() }), 'text/csv': z.string() } } },
      handle: () => reply.ok({}),
    }),
  ],
};

type Operation = { operationId: string; security: unknown[]; description: string; responses: Record<string, { headers: Record<string, unknown> }> };

describe('OpenAPI fragment from endpoint declarations', () => {
  const fragment = endpointsOpenApi([group]);
  const op = (path: string, method: string) => (fragment.paths[path] as Record<string, Operation>)[method]!;

  it('names operations <namespace><VerbNoun>', () => {
    expect(op('/api/v1/books/{id}', 'get').operationId).toBe('booksGetEntry');
    expect(op('/api/v1/books/list', 'post').operationId).toBe('booksAddListEntry');
  });

  it('derives the error statuses from the shape of each endpoint', () => {
    expect(Object.keys(op('/api/v1/books/{id}', 'get').responses).sort()).toEqual(['200', '400', '401', '404', '408', '429', '500', '502', '503', '504']);
    expect(Object.keys(op('/api/v1/books/list', 'post').responses).sort()).toEqual(['201', '400', '401', '403', '408', '409', '413', '415', '422', '429', '500', '502', '503', '504']);
  });

  it('documents access: public operations have no security, scoped ones name the scope', () => {
    expect(op('/api/v1/books/{id}', 'get').security).toEqual([]);
    expect(op('/api/v1/books/list', 'post').security).toEqual([{ bearerAuth: [] }]);
    expect(op('/api/v1/books/list', 'post').description).toContain('`list:write` scope');
  });

  it('declares X-Request-Id and the rate-limit headers on every response, and Retry-After on 429', () => {
    const responses = op('/api/v1/books/{id}', 'get').responses;
    for (const response of Object.values(responses)) {
      expect(Object.keys(response.headers)).toEqual(expect.arrayContaining(['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
    }
    expect(Object.keys(responses['429']!.headers)).toContain('Retry-After');
    expect(Object.keys(fragment.components['headers'] ?? {})).toEqual(expect.arrayContaining(['X-Request-Id', 'Retry-After']));
  });

  it('documents a response served in several content types with each body', () => {
    const content = (op('/api/v1/books/list/export', 'get').responses['200'] as unknown as { content: Record<string, { schema: { type: string } }> }).content;
    expect(Object.keys(content)).toEqual(['application/json', 'text/csv']);
    expect(content['text/csv']!.schema.type).toBe('string');
    expect(content['application/json']!.schema.type).toBe('object');
  });

  it('lists the group tags', () => {
    expect(fragment.tags).toEqual([{ name: 'books', description: 'Books' }]);
  });
});
