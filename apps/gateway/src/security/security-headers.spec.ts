import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { HELMET_OPTIONS, securityHeaders } from './security-headers';

const appWith = (middleware: express.RequestHandler) => {
  const app = express();
  app.use(middleware);
  app.get('/x', (_req, res) => {
    res.json({ ok: true });
  });
  return app;
};

/** Every header but those that differ between any two responses. */
const relevant = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'date' && name !== 'etag'));

describe('securityHeaders', () => {
  it('sets exactly the headers helmet itself sets (and removes X-Powered-By)', async () => {
    const [fromHelmet, precomputed] = await Promise.all([
      request(appWith(helmet(HELMET_OPTIONS))).get('/x'),
      request(appWith(securityHeaders())).get('/x'),
    ]);
    expect(relevant(precomputed.headers)).toEqual(relevant(fromHelmet.headers));
    expect(precomputed.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(precomputed.headers['x-powered-by']).toBeUndefined();
    expect(precomputed.body).toEqual({ ok: true });
  });
});
