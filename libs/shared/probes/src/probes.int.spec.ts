import { closeMongo, closeRedis, createMongoConnection, createRedis, openMongo, pingMongo, pingRedis, waitForRedis, type Redis } from '@mt/stores';
import { closedPort, silentLogger, testMongoUrl, testRedisUrl } from '@mt/testing';
import express from 'express';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { createLifecycle } from './lifecycle';
import { createProbeRouter } from './probe-router';

/** The probes of docs/api.md "Probes" against real stores, reachable and not. */
const HEALTHY = { status: 'healthy', database: 'connected' };
const UNREACHABLE = { status: 'unhealthy', error: 'database unreachable' };

function probeApp(pingDatabase: () => Promise<unknown>, started = true) {
  const lifecycle = createLifecycle();
  lifecycle.started = started;
  return { lifecycle, app: express().use(createProbeRouter({ service: 'svc', version: '1.0.0', lifecycle, pingDatabase })) };
}

/** Every probe body, timed: the pings must answer within ~1 s. */
async function allProbes(app: express.Express) {
  const startedAt = Date.now();
  const [livez, readyz, healthz, startupz, health] = await Promise.all(
    ['/livez', '/readyz', '/healthz', '/startupz', '/health'].map((path) => request(app).get(path)),
  );
  return {
    elapsedMs: Date.now() - startedAt,
    answers: {
      livez: [livez!.status, livez!.body],
      readyz: [readyz!.status, readyz!.body],
      healthz: [healthz!.status, healthz!.body],
      startupz: [startupz!.status, startupz!.body],
      health: [health!.status, health!.body],
    },
  };
}

describe('probes with a real MongoDB', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = createMongoConnection();
    await openMongo(connection, { url: testMongoUrl(), dbName: 'probes_int', logger: silentLogger() });
  });
  afterAll(() => closeMongo(connection));

  it('are healthy while MongoDB answers', async () => {
    const { answers } = await allProbes(probeApp(() => pingMongo(connection)).app);
    expect(answers).toEqual({
      livez: [200, { status: 'alive' }],
      readyz: [200, HEALTHY],
      healthz: [200, HEALTHY],
      startupz: [200, { status: 'started' }],
      health: [200, { ...HEALTHY, service: 'svc', version: '1.0.0', uptime_seconds: expect.any(Number) }],
    });
  });

  it('are unhealthy within ~1 s while MongoDB is unreachable (closed port), and the process stays alive', async () => {
    const down = createMongoConnection();
    const aborted = new AbortController();
    const opening = openMongo(down, { url: `mongodb://127.0.0.1:${await closedPort()}`, dbName: 'probes_int', logger: silentLogger() }, aborted.signal);
    try {
      const { app } = probeApp(() => pingMongo(down), false);
      const { answers, elapsedMs } = await allProbes(app);
      expect(elapsedMs).toBeLessThan(1500);
      expect(answers).toEqual({
        livez: [200, { status: 'alive' }],
        readyz: [503, UNREACHABLE],
        healthz: [503, UNREACHABLE],
        startupz: [503, { status: 'starting' }],
        health: [503, { ...UNREACHABLE, service: 'svc', version: '1.0.0', uptime_seconds: expect.any(Number) }],
      });
    } finally {
      aborted.abort();
      await opening;
      await closeMongo(down);
    }
  });
});

describe('probes with a real Redis', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = createRedis({ url: testRedisUrl(), logger: silentLogger(), name: 'probes-int' });
    await waitForRedis(redis);
  });
  afterAll(() => closeRedis(redis));

  it('are healthy while Redis answers', async () => {
    const { answers } = await allProbes(probeApp(() => pingRedis(redis)).app);
    expect(answers.readyz).toEqual([200, HEALTHY]);
    expect(answers.healthz).toEqual([200, HEALTHY]);
    expect(answers.health[0]).toBe(200);
  });

  it('are unhealthy within ~1 s while Redis is unreachable (closed port)', async () => {
    const down = createRedis({ url: `redis://127.0.0.1:${await closedPort()}`, logger: silentLogger(), name: 'probes-int-down' });
    try {
      const { answers, elapsedMs } = await allProbes(probeApp(() => pingRedis(down)).app);
      expect(elapsedMs).toBeLessThan(1500);
      expect(answers.livez).toEqual([200, { status: 'alive' }]);
      expect(answers.readyz).toEqual([503, UNREACHABLE]);
      expect(answers.healthz).toEqual([503, UNREACHABLE]);
      expect(answers.health[0]).toBe(503);
    } finally {
      await closeRedis(down);
    }
  });

  it('say "shutting down" on /readyz while shutting down, with Redis up', async () => {
    const { app, lifecycle } = probeApp(() => pingRedis(redis));
    lifecycle.shuttingDown = true;
    await request(app).get('/readyz').expect(503, { status: 'unhealthy', error: 'shutting down' });
    await request(app).get('/healthz').expect(200, HEALTHY);
  });
});
