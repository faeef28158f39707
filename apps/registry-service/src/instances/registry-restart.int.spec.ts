import { INTERNAL_PATHS, type RouteTableSnapshot } from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import { deleteRedisPrefix, testRedisPrefix } from '@mt/testing';
import { sampleRegistration } from '@mt/registry-testing';
import request from 'supertest';
import { startRegistry, TEST_SECRET, type RunningRegistry } from '../../test/registry-harness';

const TTL_MS = 1500;
const SWEEP_MS = 200;

const liveIds = async (registry: RunningRegistry) =>
  ((await request(registry.app).get(INTERNAL_PATHS.registryRoutes).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(200)).body as RouteTableSnapshot).services.flatMap(
    (s) => s.instances.map((i) => i.instance_id),
  );

describe('a registry restarted after an outage longer than the instance TTL', () => {
  const prefix = testRedisPrefix('registry-restart');
  afterAll(() => deleteRedisPrefix(prefix));

  it('keeps every recorded instance routed for one TTL, and expires only those that then stay silent', async () => {
    const first = await startRegistry({ prefix, ttlMs: TTL_MS, sweepIntervalMs: SWEEP_MS });
    for (const [id, category] of [['movies-1', 'movies'], ['books-1', 'books']] as const) {
      await request(first.app).put(INTERNAL_PATHS.registryInstance(id)).set(INTERNAL_SECRET_HEADER, TEST_SECRET).send(sampleRegistration(category, 'http://127.0.0.1:4001')).expect(201);
    }
    const port = first.port;
    await first.stop();
    // Nobody receives heartbeats for twice the TTL, and the "watching" marker of the old registry runs out.
    await new Promise((r) => setTimeout(r, TTL_MS * 2 + SWEEP_MS * 3));

    const second = await startRegistry({ prefix, ttlMs: TTL_MS, sweepIntervalMs: SWEEP_MS, port });
    try {
      expect(await liveIds(second)).toEqual(['books-1', 'movies-1']);
      // movies-1 is alive and beats; books-1 died during the outage and never does.
      const beat = () => request(second.app).post(INTERNAL_PATHS.registryHeartbeat('movies-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(200);
      const deadline = Date.now() + TTL_MS * 2;
      const seen: string[][] = [];
      while (Date.now() < deadline) {
        await beat();
        seen.push(await liveIds(second));
        await new Promise((r) => setTimeout(r, TTL_MS / 5));
      }
      expect(seen.every((ids) => ids.includes('movies-1'))).toBe(true);
      expect(seen.at(-1)).toEqual(['movies-1']);
    } finally {
      await second.stop();
    }
  });

  it('grants nothing when another registry has been watching all along', async () => {
    const watching = await startRegistry({ prefix, ttlMs: TTL_MS, sweepIntervalMs: SWEEP_MS });
    try {
      await request(watching.app).put(INTERNAL_PATHS.registryInstance('tv-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET).send(sampleRegistration('tvshows', 'http://127.0.0.1:4001')).expect(201);
      await new Promise((r) => setTimeout(r, TTL_MS + SWEEP_MS * 3));
      expect(await liveIds(watching)).not.toContain('tv-1');
      const late = await startRegistry({ prefix, ttlMs: TTL_MS, sweepIntervalMs: SWEEP_MS });
      try {
        expect(await liveIds(late)).not.toContain('tv-1');
      } finally {
        await late.stop();
      }
    } finally {
      await watching.stop();
    }
  });
});
