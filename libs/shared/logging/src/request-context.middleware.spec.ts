import express from 'express';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger } from './logger';
import { currentRequestId } from './request-context';
import { requestContextMiddleware, requestLogLevel, type RequestLogOptions } from './request-context.middleware';

function buildApp(options: RequestLogOptions = { accessLog: true }, level = 'debug') {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  const logger = createLogger({ service: 'test', level, destination });
  const app = express();
  app.use(requestContextMiddleware(logger, options));
  app.get('/work', async (_req, res) => {
    await new Promise((resolve) => setTimeout(resolve, 2));
    logger.info('working');
    res.json({ seen: currentRequestId() });
  });
  app.get('/livez', (_req, res) => res.json({ status: 'alive' }));
  app.get('/status/:code', (req, res) => res.status(Number(req.params['code'])).json({}));
  return { app, lines };
}

describe('requestContextMiddleware', () => {
  it('echoes a valid X-Request-Id and makes it the current request id of the handler', async () => {
    const { app } = buildApp();
    const res = await request(app).get('/work').set('X-Request-Id', 'client-7').expect(200);
    expect(res.headers['x-request-id']).toBe('client-7');
    expect(res.body).toEqual({ seen: 'client-7' });
  });

  it('logs the handler\'s lines and one summary line per request, all with the request id', async () => {
    const { app, lines } = buildApp();
    await request(app).get('/work?secret=1').set('X-Request-Id', 'client-8').expect(200);
    expect(lines.map((l) => l['msg'])).toEqual(['working', 'request']);
    expect(lines.every((l) => l['request_id'] === 'client-8')).toBe(true);
    expect(lines[1]).toMatchObject({ level: 'info', method: 'GET', path: '/work', status: 200, duration_ms: expect.any(Number) });
  });

  it("logs a scrobble hook's request without the secret in its path", async () => {
    const { app, lines } = buildApp();
    await request(app).post('/api/v1/scrobble/plex/aVeryS3cretHookValue_xyz0123456789?x=1').expect(404);
    expect(lines[0]).toMatchObject({ path: '/api/v1/scrobble/plex/[redacted]' });
    expect(JSON.stringify(lines)).not.toContain('aVeryS3cretHookValue');
  });

  it('logs probe requests at debug level only', async () => {
    const { app, lines } = buildApp();
    await request(app).get('/livez').expect(200);
    expect(lines).toEqual([expect.objectContaining({ level: 'debug', path: '/livez' })]);
  });

  it('logs a service\'s request lines at debug (the gateway\'s access log has them), its 5xx as warn or error', async () => {
    const { app, lines } = buildApp({});
    for (const code of [200, 404, 500, 503]) await request(app).get(`/status/${code}`).set('X-Request-Id', `s-${code}`).expect(code);
    expect(lines.map((l) => [l['request_id'], l['level']])).toEqual([
      ['s-200', 'debug'],
      ['s-404', 'debug'],
      ['s-500', 'error'],
      ['s-503', 'warn'],
    ]);
  });

  it('writes nothing at the default level for a service\'s successful request', async () => {
    const { app, lines } = buildApp({}, 'info');
    await request(app).get('/status/201').expect(201);
    await request(app).get('/status/503').set('X-Request-Id', 'down-1').expect(503);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', request_id: 'down-1', status: 503 })]);
  });
});

describe('requestLogLevel', () => {
  it.each<[string, number, RequestLogOptions, string]>([
    ['/api/v1/movies', 200, { accessLog: true }, 'info'],
    ['/api/v1/movies', 409, { accessLog: true }, 'info'],
    ['/api/v1/movies', 200, {}, 'debug'],
    ['/internal/routes', 200, {}, 'debug'],
    ['/readyz', 503, { accessLog: true }, 'debug'],
    ['/api/v1/movies', 500, {}, 'error'],
    ['/api/v1/movies', 501, { accessLog: true }, 'error'],
    ['/api/v1/movies', 502, { accessLog: true }, 'warn'],
    ['/api/v1/movies', 504, {}, 'warn'],
  ])('%s answered %i (%j) is logged at %s', (path, status, options, level) => {
    expect(requestLogLevel(path, status, options)).toBe(level);
  });
});
