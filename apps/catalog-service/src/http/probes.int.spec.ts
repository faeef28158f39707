import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { createMongoConnection } from '@mt/stores';
import { silentLogger } from '@mt/testing';
import request from 'supertest';
import { createApp } from './app';
import { getCategory } from '../domain/categories';
import { createCatalogModule } from '../composition/catalog-module';
import { startCatalogHarness, type CatalogHarness } from '../../test/catalog-harness';

describe('catalog-service probes', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'books' });
  });
  afterAll(() => h.close());

  it('reports alive, started and healthy with MongoDB up', async () => {
    await request(h.app).get('/livez').expect(200, { status: 'alive' });
    await request(h.app).get('/startupz').expect(200, { status: 'started' });
    await request(h.app).get('/readyz').expect(200, { status: 'healthy', database: 'connected' });
    await request(h.app).get('/healthz').expect(200, { status: 'healthy', database: 'connected' });
    const health = await request(h.app).get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'healthy', database: 'connected', service: 'catalog-service:books', version: '1.0.0', uptime_seconds: expect.any(Number) });
  });

  it('answers 503 while starting and without a database, while staying alive', async () => {
    const lifecycle = createLifecycle();
    const module = createCatalogModule({ category: getCategory('books'), connection: createMongoConnection(), logger: silentLogger(), cursorSecret: 'probes-spec-cursor-secret-of-32-chars!!!' });
    const app = createApp({ config: h.config, logger: silentLogger(), lifecycle, metrics: createMetrics('probe-test'), module });
    await request(app).get('/livez').expect(200, { status: 'alive' });
    await request(app).get('/startupz').expect(503, { status: 'starting' });
    await request(app).get('/healthz').expect(503, { status: 'unhealthy', error: 'database unreachable' });
    const api = await request(app).get('/api/v1/books');
    expect(api.status).toBe(503);
    expect(api.body).toMatchObject({ code: 'service_unavailable' });
  });
});
