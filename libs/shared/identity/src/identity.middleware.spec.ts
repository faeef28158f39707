import { errorMiddleware } from '@mt/errors';
import express, { type Express } from 'express';
import request from 'supertest';
import { INTERNAL_SECRET_HEADER, IDENTITY_HEADERS, type Identity } from './identity';
import { signIdentity } from './identity-signature';
import { identityMiddleware, identityOf, requireIdentity, requireInternalSecret, requireScope } from './identity.middleware';

const SECRET = 'k'.repeat(32);
const identity: Identity = { userId: 'u1', authType: 'pat', scopes: ['list:read'], tokenId: 't1' };
const quiet = { error: () => undefined, warn: () => undefined };

function buildApp(): Express {
  const app = express();
  app.use((req, res, next) => {
    res.locals['requestId'] = String(req.headers['x-request-id'] ?? 'req');
    next();
  });
  app.use(identityMiddleware(SECRET));
  app.get('/whoami', (req, res) => res.json({ identity: identityOf(req) ?? null }));
  app.get('/me', (req, res) => res.json(requireIdentity(req)));
  app.get('/list', requireScope('list:read'), (_req, res) => res.json({ ok: true }));
  app.post('/list', requireScope('list:write'), (_req, res) => res.json({ ok: true }));
  app.get('/internal', requireInternalSecret(SECRET), (_req, res) => res.json({ ok: true }));
  app.use(errorMiddleware(quiet));
  return app;
}

const signed = (requestId = 'req') => ({ ...signIdentity(identity, requestId, SECRET), 'x-request-id': requestId });

describe('identityMiddleware', () => {
  const app = buildApp();

  it('leaves a request without identity headers anonymous', async () => {
    await request(app).get('/whoami').expect(200, { identity: null });
  });

  it('accepts a gateway-signed identity', async () => {
    await request(app).get('/whoami').set(signed('req-5')).expect(200, { identity });
  });

  it('refuses identity headers without a valid signature with 401, so a direct caller cannot act as a user', async () => {
    const res = await request(app).get('/whoami').set({ [IDENTITY_HEADERS.userId]: 'u1', [IDENTITY_HEADERS.authType]: 'jwt' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthorized', error: 'invalid identity signature' });
    await request(app).get('/whoami').set({ ...signed('req-a'), 'x-request-id': 'req-b' }).expect(401);
  });
});

describe('guards', () => {
  const app = buildApp();

  it('requireIdentity: 401 when anonymous', async () => {
    expect((await request(app).get('/me')).body).toMatchObject({ status: 401, code: 'unauthorized' });
    await request(app).get('/me').set(signed()).expect(200);
  });

  it('requireScope: 401 anonymous, 403 naming the missing scope, 200 with it', async () => {
    await request(app).get('/list').expect(401);
    const forbidden = await request(app).post('/list').set(signed());
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 'forbidden', error: "token lacks the 'list:write' scope" });
    await request(app).get('/list').set(signed()).expect(200);
  });

  it('requireInternalSecret: only the shared secret opens internal endpoints', async () => {
    await request(app).get('/internal').expect(401);
    await request(app).get('/internal').set(INTERNAL_SECRET_HEADER, 'wrong').expect(401);
    await request(app).get('/internal').set(INTERNAL_SECRET_HEADER, SECRET).expect(200, { ok: true });
  });
});
