import { z } from '@mt/contracts';
import { errorMiddleware } from '@mt/errors';
import { identityMiddleware, signIdentity } from '@mt/identity';
import { requestContextMiddleware } from '@mt/logging';
import { silentLogger } from '@mt/testing';
import express from 'express';
import request from 'supertest';
import { defineEndpoint, INTERNAL, PUBLIC, reply, scope, STREAMED, type EndpointGroup } from './endpoint';
import { endpointRouter } from './endpoint-router';

const SECRET = 's'.repeat(40);

const group: EndpointGroup = {
  namespace: 'things',
  mount: '/api/v1/things',
  tags: [{ name: 'things', description: 'Things' }],
  endpoints: [
    defineEndpoint({
      name: 'search things',
      method: 'GET',
      path: '/',
      access: PUBLIC,
      summary: 'Search',
      query: z.strictObject({ q: z.string().min(1).optional() }),
      responses: { 200: { description: 'Found' } },
      handle: ({ query }) => reply.ok({ q: query.q ?? null }),
    }),
    defineEndpoint({
      name: 'create thing',
      method: 'POST',
      path: '/',
      access: scope('list:write'),
      summary: 'Create',
      body: z.strictObject({ name: z.string().min(1) }),
      responses: { 201: { description: 'Created' } },
      handle: ({ body, caller }) => reply.created({ name: body.name, by: caller.userId }, '/api/v1/things/1'),
    }),
    defineEndpoint({
      name: 'get thing',
      method: 'GET',
      path: '/{id}',
      access: PUBLIC,
      summary: 'Get',
      params: z.strictObject({ id: z.string().regex(/^\d+$/, 'must be digits') }),
      responses: { 200: { description: 'The thing' } },
      handle: ({ params }) => reply.ok({ id: params.id }),
    }),
    defineEndpoint({
      name: 'upload',
      method: 'POST',
      path: '/uploads',
      access: PUBLIC,
      summary: 'Upload',
      rawBody: { contentTypes: ['text/csv'], limitBytes: 10, description: 'CSV' },
      responses: { 200: { description: 'Read' } },
      async handle({ req, res }) {
        let bytes = 0;
        for await (const chunk of req) bytes += (chunk as Buffer).length;
        res.json({ bytes });
        return STREAMED;
      },
    }),
  ],
};

const internal: EndpointGroup = {
  namespace: 'internal',
  mount: '/internal',
  tags: [{ name: 'internal', description: 'Internal' }],
  endpoints: [defineEndpoint({ name: 'ping', method: 'GET', path: '/ping', access: INTERNAL, summary: 'Ping', responses: { 200: { description: 'Pong' } }, handle: () => reply.ok({ pong: true }) })],
};

function app() {
  const built = express();
  built.use(requestContextMiddleware(silentLogger()));
  built.use(identityMiddleware(SECRET));
  built.use(endpointRouter([group, internal], { internalSecret: SECRET }));
  built.use(errorMiddleware(silentLogger()));
  return built;
}

const asUser = (test: request.Test, scopes: string[]) => {
  const requestId = 'req-1';
  const headers = signIdentity({ userId: 'u1', authType: 'pat', scopes: scopes as never, tokenId: 't1' }, requestId, SECRET);
  return test.set('x-request-id', requestId).set(headers);
};

describe('endpoint router', () => {
  it('validates the query and hands the parsed values to the handler', async () => {
    await request(app()).get('/api/v1/things?q=abc').expect(200, { q: 'abc' });
  });

  it('rejects an unknown query parameter with 400, naming it as a query parameter', async () => {
    const res = await request(app()).get('/api/v1/things/7?remember=1').expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', details: [{ path: 'remember', message: 'unknown query parameter' }] });
  });

  it('rejects a malformed path parameter with 400', async () => {
    const res = await request(app()).get('/api/v1/things/abc').expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', details: [{ path: 'id', message: 'must be digits' }] });
  });

  it('answers 405 with Allow for another method on a declared path', async () => {
    const res = await request(app()).delete('/api/v1/things').expect(405);
    expect(res.headers['allow']).toBe('GET, POST, HEAD');
  });

  it('re-checks the scope from the signed identity: 401 without one, 403 without the scope', async () => {
    await request(app()).post('/api/v1/things').send({ name: 'x' }).expect(401);
    const forbidden = await asUser(request(app()).post('/api/v1/things'), ['list:read']).send({ name: 'x' }).expect(403);
    expect(forbidden.body.error).toBe("token lacks the 'list:write' scope");
    const created = await asUser(request(app()).post('/api/v1/things'), ['list:write']).send({ name: 'x' }).expect(201);
    expect(created.body).toEqual({ name: 'x', by: 'u1' });
    expect(created.headers['location']).toBe('/api/v1/things/1');
  });

  it('rejects unknown fields, a missing body, a non-JSON body and an oversized one', async () => {
    const unknown = await asUser(request(app()).post('/api/v1/things'), ['list:write']).send({ name: 'x', nmae: 'y' }).expect(400);
    expect(unknown.body.details).toEqual([{ path: 'nmae', message: 'unknown field' }]);
    const missing = await asUser(request(app()).post('/api/v1/things'), ['list:write']).expect(400);
    expect(missing.body.details).toEqual([{ path: 'name', message: 'is required' }]);
    await asUser(request(app()).post('/api/v1/things'), ['list:write']).set('content-type', 'text/plain').send('hi').expect(415);
    const huge = await asUser(request(app()).post('/api/v1/things'), ['list:write']).send({ name: 'x'.repeat(1024 * 1024) }).expect(413);
    expect(huge.body).toMatchObject({ code: 'payload_too_large', error: 'request body exceeds 1 MiB' });
  });

  it('streams a raw body of a declared content type to the handler, and refuses others with 415', async () => {
    await request(app()).post('/api/v1/things/uploads').set('content-type', 'text/csv').send('a,b\n1,2\n').expect(200, { bytes: 8 });
    await request(app()).post('/api/v1/things/uploads').set('content-type', 'application/json').send('{}').expect(415);
  });

  it('tries literal segments before parameters whatever the declaration order', async () => {
    const ordered: EndpointGroup = {
      ...group,
      endpoints: [
        defineEndpoint({ name: 'a', method: 'GET', path: '/{id}', access: PUBLIC, summary: 'a', params: z.strictObject({ id: z.string().regex(/^\d+$/) }), responses: { 200: { description: 'a' } }, handle: () => reply.ok('id') }),
        defineEndpoint({ name: 'b', method: 'GET', path: '/list/{item}', access: PUBLIC, summary: 'b', params: z.strictObject({ item: z.string().regex(/^\d+$/) }), responses: { 200: { description: 'b' } }, handle: () => reply.ok('item') }),
        defineEndpoint({ name: 'c', method: 'GET', path: '/', access: PUBLIC, summary: 'c', responses: { 200: { description: 'c' } }, handle: () => reply.ok('root') }),
        defineEndpoint({ name: 'd', method: 'GET', path: '/list/summary', access: PUBLIC, summary: 'd', responses: { 200: { description: 'd' } }, handle: () => reply.ok('summary') }),
        defineEndpoint({ name: 'e', method: 'GET', path: '/list', access: PUBLIC, summary: 'e', responses: { 200: { description: 'e' } }, handle: () => reply.ok('list') }),
      ],
    };
    const built = express().use(endpointRouter([ordered])).use(errorMiddleware(silentLogger()));
    await request(built).get('/api/v1/things/list/summary').expect(200, '"summary"');
    await request(built).get('/api/v1/things/list/7').expect(200, '"item"');
    await request(built).get('/api/v1/things/list').expect(200, '"list"');
    await request(built).get('/api/v1/things/7').expect(200, '"id"');
  });

  it('guards internal endpoints with the internal secret', async () => {
    await request(app()).get('/internal/ping').expect(401);
    await request(app()).get('/internal/ping').set('x-mt-internal-secret', SECRET).expect(200, { pong: true });
  });

  it('refuses a declaration whose params schema does not match its path, at start-up', () => {
    const broken: EndpointGroup = {
      ...group,
      endpoints: [defineEndpoint({ name: 'x', method: 'GET', path: '/{id}', access: PUBLIC, summary: 'x', responses: { 200: { description: 'x' } }, handle: () => reply.ok({}) })],
    };
    expect(() => endpointRouter([broken])).toThrow('params schema () must match the path\'s parameters (id)');
  });
});
