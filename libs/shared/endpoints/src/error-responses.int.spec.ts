import { errors } from '@mt/errors';
import { createMetrics } from '@mt/metrics';
import { createLifecycle, type Lifecycle } from '@mt/probes';
import { closeMongo, closeRedis, createMongoConnection, createRedis, openMongo, waitForRedis, type Redis } from '@mt/stores';
import { captureLogger, silentLogger, startTcpProxy, testMongoUrl, testRedisUrl, type TcpProxy } from '@mt/testing';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { z } from 'zod';
import { createHttpApp, finishHttpApp } from '@mt/http';
import { defineEndpoint, PUBLIC, reply, type EndpointGroup, type Reply } from './endpoint';
import { endpointRouter } from './endpoint-router';

/**
 * Every error status of docs/api.md "Errors" that the common HTTP front produces, checked on the whole payload:
 * `error`, `status`, `timestamp` (ISO with ms), `code`, `request_id` (= X-Request-Id), `details` where
 * relevant, nothing else (no stack, no driver text).
 */
const ISO_WITH_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LEAKS = /stack|at .+\.ts:\d+|Mongo[A-Za-z]*Error|ECONNREFUSED|hunter2|\/work\/|node_modules/;

const ThingSchema = z.strictObject({
  title: z.string().min(1).max(300),
  year: z.number().int().min(1870).max(2100),
  tags: z.array(z.string()).optional(),
});

interface Fixture {
  app: Express;
  lifecycle: Lifecycle;
  lines: () => string[];
}

let mongoProxy: TcpProxy;
let redisProxy: TcpProxy;
let mongo: Connection;
let redis: Redis;

function buildApp(): Fixture {
  const { logger, lines } = captureLogger('http-test');
  const lifecycle = createLifecycle();
  lifecycle.started = true;
  const app = createHttpApp({
    logger,
    metrics: createMetrics('http-test'),
    probes: { service: 'http-test', version: '1.0.0', lifecycle, pingDatabase: async () => undefined },
  });
  const endpoint = (name: string, path: string, handle: () => Promise<Reply> | Reply, method: 'GET' | 'POST' = 'GET') =>
    defineEndpoint({ name, method, path, access: PUBLIC, summary: name, responses: { 200: { description: name } }, handle });
  const things: EndpointGroup = {
    namespace: 'things',
    mount: '/api/v1',
    tags: [{ name: 'things', description: 'Things' }],
    endpoints: [
      defineEndpoint({
        name: 'createThing',
        method: 'POST',
        path: '/things',
        access: PUBLIC,
        summary: 'Create',
        body: ThingSchema,
        responses: { 201: { description: 'Created' } },
        handle: ({ body }) => reply.created(body),
      }),
      endpoint('listThings', '/things', () => reply.ok([])),
      defineEndpoint({
        name: 'getThing',
        method: 'GET',
        path: '/things/{id}',
        access: PUBLIC,
        summary: 'Get',
        params: z.strictObject({ id: z.string() }),
        responses: { 200: { description: 'The thing' } },
        handle: ({ params }) => reply.ok({ id: params.id }),
      }),
      endpoint('boom', '/boom', () => {
        const error = new Error('cannot decrypt the secret of mongodb://admin:hunter2@10.0.0.7:27017');
        error.stack = 'Error: boom\n    at handler (/work/main/libs/secret.ts:12:3)';
        throw error;
      }),
      endpoint('typeError', '/type-error', async () => {
        const value = undefined as unknown as { field: { deeper: string } };
        return reply.ok(value.field.deeper);
      }),
      endpoint('mongoThings', '/mongo-things', async () => reply.ok(await mongo.db!.collection('things').find({}).limit(1).toArray())),
      endpoint('redisThings', '/redis-things', async () => reply.ok({ value: await redis.get('t:http-test:missing') })),
      endpoint('forbidden', '/forbidden', () => {
        throw errors.forbidden("token lacks the 'list:write' scope");
      }),
    ],
  };
  app.use(endpointRouter([things]));
  return { app: finishHttpApp(app, logger), lifecycle, lines };
}

/** The checks every error payload must pass; returns the body for the case's own assertions. */
function expectErrorPayload(res: request.Response, status: number, code: string, withDetails = false) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const requestId = res.headers['x-request-id'];
  expect(requestId).toEqual(expect.any(String));
  const expectedKeys = ['code', 'error', 'request_id', 'status', 'timestamp', ...(withDetails ? ['details'] : [])].sort();
  expect(Object.keys(res.body).sort()).toEqual(expectedKeys);
  expect(res.body).toMatchObject({ status, code, request_id: requestId, error: expect.any(String) });
  expect(res.body.error.length).toBeGreaterThan(0);
  expect(res.body.timestamp).toMatch(ISO_WITH_MS);
  expect(Math.abs(Date.parse(res.body.timestamp) - Date.now())).toBeLessThan(10_000);
  expect(res.text).not.toMatch(LEAKS);
  return res.body as { error: string; details?: Array<{ path: string; message: string }> };
}

beforeAll(async () => {
  [mongoProxy, redisProxy] = await Promise.all([startTcpProxy(testMongoUrl()), startTcpProxy(testRedisUrl())]);
  mongo = createMongoConnection();
  await openMongo(mongo, { url: mongoProxy.url, dbName: 'http_error_responses', logger: silentLogger() });
  redis = createRedis({ url: redisProxy.url, logger: silentLogger(), name: 'http-test' });
  await waitForRedis(redis);
});

afterAll(async () => {
  await closeMongo(mongo);
  await closeRedis(redis);
  await Promise.all([mongoProxy.cut(), redisProxy.cut()]);
});

describe('error responses of the common HTTP front (createHttpApp + finishHttpApp)', () => {
  let fixture: Fixture;
  beforeEach(() => {
    fixture = buildApp();
  });

  it('400: malformed JSON', async () => {
    const res = await request(fixture.app).post('/api/v1/things').set('Content-Type', 'application/json').send('{"title": "x",');
    const body = expectErrorPayload(res, 400, 'validation_failed', true);
    expect(body).toMatchObject({ error: 'malformed JSON body', details: [{ path: '', message: 'body is not valid JSON' }] });
  });

  it('400: a JSON body that is not an object (strict parsing)', async () => {
    const res = await request(fixture.app).post('/api/v1/things').set('Content-Type', 'application/json').send('"just a string"');
    expectErrorPayload(res, 400, 'validation_failed', true);
  });

  it('400: failed validation lists every failing field, unknown fields included', async () => {
    const res = await request(fixture.app)
      .post('/api/v1/things')
      .send({ title: '', year: 1800, tags: ['ok', 3], colour: 'red', sizee: 2 });
    const body = expectErrorPayload(res, 400, 'validation_failed', true);
    expect(body.error).toBe('request body is invalid');
    expect(body.details!.map((d) => d.path).sort()).toEqual(['colour', 'sizee', 'tags.1', 'title', 'year']);
    expect(body.details).toEqual(
      expect.arrayContaining([
        { path: 'colour', message: 'unknown field' },
        { path: 'sizee', message: 'unknown field' },
      ]),
    );
  });

  it('400: a request without a body names every missing field', async () => {
    const res = await request(fixture.app).post('/api/v1/things');
    const body = expectErrorPayload(res, 400, 'validation_failed', true);
    expect(body.details).toEqual([
      { path: 'title', message: 'is required' },
      { path: 'year', message: 'is required' },
    ]);
  });

  it('400: an empty JSON body with a JSON content type names every missing field too', async () => {
    const res = await request(fixture.app).post('/api/v1/things').set('Content-Type', 'application/json').set('Content-Length', '0');
    const body = expectErrorPayload(res, 400, 'validation_failed', true);
    expect(body.details!.map((d) => d.path)).toEqual(['title', 'year']);
  });

  it('400: a path with malformed percent-encoding is the client\'s fault, not a 500', async () => {
    const res = await request(fixture.app).get('/api/v1/things/%E0%A4%A');
    expectErrorPayload(res, 400, 'validation_failed', true);
  });

  it('403: a typed error from a handler keeps its status and message', async () => {
    const res = await request(fixture.app).get('/api/v1/forbidden');
    expect(expectErrorPayload(res, 403, 'forbidden').error).toBe("token lacks the 'list:write' scope");
  });

  it('404: an unknown route', async () => {
    const res = await request(fixture.app).get('/api/v1/unknown/thing');
    expect(expectErrorPayload(res, 404, 'not_found').error).toBe('no route for GET /api/v1/unknown/thing');
  });

  it('405: a known path with the wrong method, with Allow', async () => {
    const res = await request(fixture.app).delete('/api/v1/things');
    expectErrorPayload(res, 405, 'method_not_allowed');
    expect(res.headers['allow']).toBe('POST, GET, HEAD');
    const single = await request(fixture.app).put('/api/v1/things/123').send({});
    expectErrorPayload(single, 405, 'method_not_allowed');
    expect(single.headers['allow']).toBe('GET, HEAD');
  });

  it('405: the probes accept GET only', async () => {
    const res = await request(fixture.app).post('/readyz');
    expectErrorPayload(res, 405, 'method_not_allowed');
    expect(res.headers['allow']).toBe('GET, HEAD');
  });

  it('413: a body over 1 MiB', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(1024 * 1024), year: 2000 });
    const res = await request(fixture.app).post('/api/v1/things').set('Content-Type', 'application/json').send(big);
    expect(expectErrorPayload(res, 413, 'payload_too_large').error).toBe('request body exceeds 1 MiB');
  });

  it('accepts a body just under 1 MiB', async () => {
    const title = 'x'.repeat(250);
    const padding = ' '.repeat(1024 * 1024 - 100 - title.length);
    const res = await request(fixture.app)
      .post('/api/v1/things')
      .set('Content-Type', 'application/json')
      .send(`{"title":"${title}",${padding}"year":2000}`);
    expect(res.status).toBe(201);
  });

  it('415: a body that is not JSON, or has no content type', async () => {
    const text = await request(fixture.app).post('/api/v1/things').set('Content-Type', 'text/plain').send('title=x');
    expect(expectErrorPayload(text, 415, 'unsupported_media_type').error).toBe('request body must be application/json');
    const form = await request(fixture.app).post('/api/v1/things').type('form').send({ title: 'x' });
    expectErrorPayload(form, 415, 'unsupported_media_type');
    const latin1 = await request(fixture.app)
      .post('/api/v1/things')
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{"title":"x","year":2000}');
    expectErrorPayload(latin1, 415, 'unsupported_media_type');
  });

  it('500: an unexpected fault reveals no stack and no driver text, and logs no stack either', async () => {
    const res = await request(fixture.app).get('/api/v1/boom');
    expect(expectErrorPayload(res, 500, 'internal').error).toBe('internal server error');
    const typeError = await request(fixture.app).get('/api/v1/type-error');
    expect(expectErrorPayload(typeError, 500, 'internal').error).toBe('internal server error');
    const logged = fixture.lines().join('\n');
    expect(logged).toContain('request failed');
    expect(logged).not.toMatch(/secret\.ts|hunter2|"stack"/);
  });

  it('503: MongoDB down while serving', async () => {
    await request(fixture.app).get('/api/v1/mongo-things').expect(200);
    const cut = await startTcpProxy(testMongoUrl());
    const down = createMongoConnection();
    await openMongo(down, { url: cut.url, dbName: 'http_error_responses', logger: silentLogger() });
    const up = mongo;
    mongo = down;
    try {
      await cut.cut();
      const startedAt = Date.now();
      const res = await request(fixture.app).get('/api/v1/mongo-things');
      expect(expectErrorPayload(res, 503, 'service_unavailable').error).toBe('database unavailable');
      expect(Date.now() - startedAt).toBeLessThan(5000);
    } finally {
      mongo = up;
      await closeMongo(down);
    }
  });

  it('503: Redis down while serving', async () => {
    await request(fixture.app).get('/api/v1/redis-things').expect(200, { value: null });
    const cut = await startTcpProxy(testRedisUrl());
    const down = createRedis({ url: cut.url, logger: silentLogger(), name: 'http-test-down' });
    await waitForRedis(down);
    const up = redis;
    redis = down;
    try {
      await cut.cut();
      const startedAt = Date.now();
      const res = await request(fixture.app).get('/api/v1/redis-things');
      expect(expectErrorPayload(res, 503, 'service_unavailable').error).toBe('database unavailable');
      expect(Date.now() - startedAt).toBeLessThan(3000);
    } finally {
      redis = up;
      await closeRedis(down);
    }
  });

  it('503: API routes while start-up has not finished (the probes still answer)', async () => {
    fixture.lifecycle.started = false;
    const res = await request(fixture.app).get('/api/v1/things');
    expect(expectErrorPayload(res, 503, 'service_unavailable').error).toBe('service is starting');
    await request(fixture.app).get('/livez').expect(200, { status: 'alive' });
  });
});

describe('request id', () => {
  let fixture: Fixture;
  beforeEach(() => {
    fixture = buildApp();
  });

  it('echoes a valid client X-Request-Id of up to 128 visible characters, in the payload too', async () => {
    for (const id of ['abc-123', '!'.repeat(128), 'trace=1;span=2/~x']) {
      const res = await request(fixture.app).get('/api/v1/nothing').set('X-Request-Id', id);
      expect(res.headers['x-request-id']).toBe(id);
      expect(res.body.request_id).toBe(id);
    }
  });

  it('replaces an invalid X-Request-Id (too long, spaces, non-ASCII, empty) with a generated one', async () => {
    for (const id of ['x'.repeat(129), 'has space', 'ünïcode', '']) {
      const res = await request(fixture.app).get('/api/v1/nothing').set('X-Request-Id', id);
      const echoed = res.headers['x-request-id'];
      expect(echoed).not.toBe(id);
      expect(echoed).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(res.body.request_id).toBe(echoed);
    }
  });

  it('generates one when the client sends none, different for every request', async () => {
    const [a, b] = await Promise.all([request(fixture.app).get('/livez'), request(fixture.app).get('/livez')]);
    expect(a.headers['x-request-id']).toEqual(expect.any(String));
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('stamps the log lines of the request with it', async () => {
    await request(fixture.app).get('/api/v1/boom').set('X-Request-Id', 'trace-me-42');
    const lines = fixture.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    const ofRequest = lines.filter((line) => line['request_id'] === 'trace-me-42');
    expect(ofRequest.map((line) => line['msg'])).toEqual(['request failed', 'request']);
    expect(ofRequest[1]).toMatchObject({ method: 'GET', path: '/api/v1/boom', status: 500, duration_ms: expect.any(Number) });
    expect(lines.every((line) => line['request_id'] === 'trace-me-42')).toBe(true);
  });
});
