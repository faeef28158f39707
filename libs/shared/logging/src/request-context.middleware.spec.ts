import express from 'express';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger } from './logger';
import { currentRequestId } from './request-context';
import { requestContextMiddleware } from './request-context.middleware';

function buildApp() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  const logger = createLogger({ service: 'test', level: 'debug', destination });
  const app = express();
  app.use(requestContextMiddleware(logger));
  app.get('/work', async (_req, res) => {
    await new Promise((resolve) => setTimeout(resolve, 2));
    logger.info('working');
    res.json({ seen: currentRequestId() });
  });
  app.get('/livez', (_req, res) => res.json({ status: 'alive' }));
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

  it('logs probe requests at debug level only', async () => {
    const { app, lines } = buildApp();
    await request(app).get('/livez').expect(200);
    expect(lines).toEqual([expect.objectContaining({ level: 'debug', path: '/livez' })]);
  });
});
