import express, { type Express } from 'express';
import request from 'supertest';
import { errors } from './app-error';
import { errorMiddleware, notFoundHandler } from './error-middleware';
import { rejectOtherMethods } from './method-not-allowed';

interface Logged {
  level: 'error' | 'warn';
  obj: Record<string, unknown>;
  msg: string;
}

function buildApp(logged: Logged[]): Express {
  const app = express();
  app.use((_req, res, next) => {
    res.locals['requestId'] = 'req-123';
    res.setHeader('X-Request-Id', 'req-123');
    next();
  });
  app.get('/conflict', () => {
    throw errors.conflict('title already exists', { existing_id: '65f0c0ffee' });
  });
  app.get('/limited', () => {
    throw errors.rateLimited(30);
  });
  app.get('/boom', () => {
    const error = new Error('connection string mongodb://admin:hunter2@db:27017 refused');
    error.stack = 'Error: at secret/internal/file.ts:1:1';
    throw error;
  });
  app.get('/starting', () => {
    throw errors.serviceUnavailable('service is starting');
  });
  app.get('/late', (_req, res, next) => {
    res.status(200).write('partial');
    next(new Error('after the headers'));
  });
  app.route('/only-get').get((_req, res) => res.json({ ok: true })).all(rejectOtherMethods(['GET']));
  app.use(notFoundHandler);
  app.use(
    errorMiddleware({
      error: (obj, msg) => logged.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
      warn: (obj, msg) => logged.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
    }),
  );
  return app;
}

describe('errorMiddleware', () => {
  let logged: Logged[];
  let app: Express;
  beforeEach(() => {
    logged = [];
    app = buildApp(logged);
  });

  it('renders an AppError as the contract payload with its extra fields and the request id', async () => {
    const res = await request(app).get('/conflict').expect(409);
    expect(res.body).toEqual({
      error: 'title already exists',
      status: 409,
      code: 'conflict',
      existing_id: '65f0c0ffee',
      request_id: 'req-123',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(logged).toEqual([]);
  });

  it('sets the headers that belong to the error', async () => {
    const res = await request(app).get('/limited').expect(429);
    expect(res.headers['retry-after']).toBe('30');
  });

  it('answers an unexpected fault with a bare 500 and logs its name and message, never its stack', async () => {
    const res = await request(app).get('/boom').expect(500);
    expect(res.body).toEqual({
      error: 'internal server error',
      status: 500,
      code: 'internal',
      request_id: 'req-123',
      timestamp: expect.any(String),
    });
    expect(res.text).not.toMatch(/hunter2|mongodb:|secret\/internal|stack/);
    expect(logged).toEqual([
      {
        level: 'error',
        msg: 'request failed',
        obj: { err: { name: 'Error', message: 'connection string mongodb://[redacted]@db:27017 refused' }, status: 500 },
      },
    ]);
    expect(JSON.stringify(logged)).not.toMatch(/secret\/internal|hunter2/);
  });

  it('logs a deliberate 5xx as a warning, not an error', async () => {
    await request(app).get('/starting').expect(503);
    expect(logged.map((l) => l.level)).toEqual(['warn']);
  });

  it('answers an unknown route with a 404 naming the method and path', async () => {
    const res = await request(app).delete('/nowhere').expect(404);
    expect(res.body).toMatchObject({ status: 404, code: 'not_found', error: 'no route for DELETE /nowhere' });
  });

  it('answers another method on a known path with 405 and Allow (HEAD included with GET)', async () => {
    const res = await request(app).post('/only-get').expect(405);
    expect(res.headers['allow']).toBe('GET, HEAD');
    expect(res.body).toMatchObject({ status: 405, code: 'method_not_allowed' });
  });

  it('ends a response whose headers were already sent instead of leaving the client hanging', async () => {
    await expect(request(app).get('/late')).rejects.toThrow();
  });
});
