import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { closeMongo, createMongoConnection } from '@mt/stores';
import { silentLogger } from '@mt/testing';
import request from 'supertest';
import { startAuthHarness, type AuthHarness } from '../test/auth-harness';
import { asJwtUser } from '../test/identity-headers';
import { createApp } from './app';

describe('auth-service probes', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  it('reports healthy with MongoDB up, ignoring credentials entirely', async () => {
    await request(h.app).get('/readyz').expect(200, { status: 'healthy', database: 'connected' });
    await request(h.app).get('/healthz').set(asJwtUser('bad')).set('x-mt-identity-sig', 'forged').expect(200, { status: 'healthy', database: 'connected' });
    await request(h.app).get('/livez').expect(200, { status: 'alive' });
    await request(h.app).get('/startupz').expect(200, { status: 'started' });
    const health = await request(h.app).get('/health').expect(200);
    expect(health.body).toMatchObject({ status: 'healthy', database: 'connected', service: 'auth-service', version: '1.0.0' });
  });

  it('answers 503 on the API and the probes while starting, and unhealthy when MongoDB is unreachable', async () => {
    const connection = createMongoConnection(); // never opened: MongoDB unreachable
    const lifecycle = createLifecycle();
    const app = createApp({ config: h.config, logger: silentLogger(), lifecycle, metrics: createMetrics('probe-test'), connection, auth: h.auth });
    await request(app).get('/startupz').expect(503, { status: 'starting' });
    const api = await request(app).post('/api/v1/auth/login').send({ username: 'a', password: 'b' }).expect(503);
    expect(api.body).toMatchObject({ code: 'service_unavailable', error: 'service is starting' });
    lifecycle.started = true;
    await request(app).get('/readyz').expect(503, { status: 'unhealthy', error: 'database unreachable' });
    await request(app).get('/livez').expect(200, { status: 'alive' });
    await closeMongo(connection);
  });
});
