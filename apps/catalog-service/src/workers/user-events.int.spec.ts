import { redisKeys, USER_DELETED } from '@mt/contracts';
import { createMetrics, type Metrics } from '@mt/metrics';
import { closeRedis, createRedis, waitForRedis, type Redis } from '@mt/stores';
import { closedPort, deleteRedisPrefix, silentLogger, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCatalogHarness, type CatalogHarness } from '../../test/catalog-harness';
import { eventually } from '../../test/eventually';
import { newUserId } from '../../test/identity-headers';
import { seedEntries } from '../../test/seed';
import { UserEventsConsumer } from '@mt/stores';

describe('user.deleted consumer', () => {
  let h: CatalogHarness;
  let prefix: string;
  let stream: string;
  let inspect: Redis;
  const consumers: UserEventsConsumer[] = [];
  const group = 'catalog-movies';

  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    prefix = testRedisPrefix('catalog-events');
    stream = redisKeys(prefix).userEvents();
    inspect = createRedis({ url: testRedisUrl(), logger: silentLogger(), name: 'inspect' });
    await waitForRedis(inspect);
  });
  afterEach(async () => {
    await Promise.all(consumers.splice(0).map((consumer) => consumer.stop().then(() => closeRedis(consumer.redis))));
  });
  afterAll(async () => {
    await closeRedis(inspect);
    await deleteRedisPrefix(prefix);
    await h.close();
  });

  function startConsumer(
    name: string,
    options: { eraseUser?: (userId: string) => Promise<unknown>; claimIdleMs?: number; redisUrl?: string; metrics?: Metrics } = {},
  ): UserEventsConsumer {
    const consumer = new UserEventsConsumer({
      redis: createRedis({ url: options.redisUrl ?? testRedisUrl(), logger: silentLogger(), name, blocking: true }),
      stream,
      group,
      consumer: name,
      eraseUser: options.eraseUser ?? ((userId) => h.module.userDeletion.eraseUser(userId)),
      logger: silentLogger(),
      metrics: options.metrics ?? createMetrics('catalog-test'),
      claimIdleMs: options.claimIdleMs ?? 60_000,
      blockMs: 100,
    });
    consumers.push(consumer);
    consumer.start();
    return consumer;
  }

  const publishDeletion = (userId: string, redis: Redis = inspect) =>
    redis.xadd(stream, '*', 'type', USER_DELETED, 'user_id', userId, 'occurred_at', new Date().toISOString());

  /** A user who created two entries and has both on their list, plus a bystander with one of them listed. */
  async function userWithData() {
    const user = newUserId();
    const bystander = newUserId();
    const docs = await seedEntries(h.module, [
      { title: `Mine ${user}`, created_by: user },
      { title: `Also mine ${user}`, created_by: user },
    ]);
    for (const doc of docs) await h.module.lists.add(user, { item_id: doc._id.toHexString() });
    await h.module.lists.add(bystander, { item_id: docs[0]!._id.toHexString() });
    return { user, bystander, ids: docs.map((doc) => doc._id.toHexString()) };
  }

  async function expectErased({ user, bystander, ids }: Awaited<ReturnType<typeof userWithData>>): Promise<void> {
    for (const id of ids) expect((await h.module.catalog.get(id))['created_by']).toBeNull();
    expect((await h.module.lists.page(user, {})).total).toBe(0);
    expect((await h.module.lists.page(bystander, {})).total).toBe(1);
  }

  const pendingCount = async () => {
    const summary = (await inspect.xpending(stream, group)) as [number, ...unknown[]];
    return Number(summary[0]);
  };

  it('erases the list and releases the created entries, then acknowledges', async () => {
    const data = await userWithData();
    const metrics = createMetrics('catalog-test');
    startConsumer('instance-a', { metrics });
    await publishDeletion(data.user);
    await eventually(() => expectErased(data));
    await eventually(async () => expect(await pendingCount()).toBe(0));
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/events_processed_total\{type="user.deleted",outcome="applied",service="catalog-test"\} 1/);
    await eventually(async () => expect(await metrics.registry.metrics()).toMatch(/events_consumer_lag\{stream="[^"]+",group="catalog-movies",service="catalog-test"\} 0/));
  });

  it('applies an event published while every instance was stopped, once started again', async () => {
    const first = startConsumer('instance-before');
    await eventually(async () => expect(await inspect.exists(stream)).toBe(1));
    await first.stop();
    const data = await userWithData();
    await publishDeletion(data.user);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Still there while nobody consumes.
    expect((await h.module.lists.page(data.user, {})).total).toBe(2);
    startConsumer('instance-after-restart');
    await eventually(() => expectErased(data));
  });

  it('applies events published before the consumer group existed', async () => {
    await inspect.xgroup('DESTROY', stream, group);
    const data = await userWithData();
    await publishDeletion(data.user);
    startConsumer('instance-first-start');
    await eventually(() => expectErased(data));
  });

  it('takes over an event whose handling crashed half-way and completes it', async () => {
    const data = await userWithData();
    let crashed = false;
    // Deletes the list, then "crashes" before releasing the catalog entries and acknowledging.
    const crashing = startConsumer('instance-crashing', {
      eraseUser: async (userId) => {
        await h.module.listRepository.deleteAllOfUser(userId, undefined);
        crashed = true;
        throw new Error('process killed');
      },
    });
    await publishDeletion(data.user);
    await eventually(() => expect(crashed).toBe(true));
    await crashing.stop();
    expect((await h.module.catalog.get(data.ids[0]!))['created_by']).toBe(data.user);
    expect(await pendingCount()).toBe(1);

    startConsumer('instance-rescuer', { claimIdleMs: 200 });
    await eventually(() => expectErased(data));
    await eventually(async () => expect(await pendingCount()).toBe(0));
  });

  it('is idempotent: the same deletion twice changes nothing more', async () => {
    const data = await userWithData();
    startConsumer('instance-twice');
    await publishDeletion(data.user);
    await publishDeletion(data.user);
    await eventually(async () => expect(await pendingCount()).toBe(0));
    await eventually(async () => {
      const info = (await inspect.xinfo('GROUPS', stream)) as unknown[][];
      const mine = info.map((raw) => Object.fromEntries(Array.from({ length: raw.length / 2 }, (_, i) => [raw[2 * i], raw[2 * i + 1]])));
      expect(mine.find((g) => g['name'] === group)?.['lag']).toBe(0);
    });
    // Delivered (lag 0) is not yet handled: both events are acknowledged once erased.
    await eventually(async () => expect(await pendingCount()).toBe(0));
    await eventually(() => expectErased(data));
  });

  it('acknowledges events it does not handle instead of retrying them forever', async () => {
    const metrics = createMetrics('catalog-test');
    startConsumer('instance-ignoring', { metrics });
    await inspect.xadd(stream, '*', 'type', 'user.renamed', 'user_id', newUserId());
    await inspect.xadd(stream, '*', 'type', USER_DELETED, 'occurred_at', new Date().toISOString());
    await eventually(async () => expect(await pendingCount()).toBe(0));
    await eventually(async () => {
      const text = await metrics.registry.metrics();
      expect(text).toMatch(/events_processed_total\{type="user.renamed",outcome="ignored",service="catalog-test"\} 1/);
      expect(text).toMatch(/events_processed_total\{type="user.deleted",outcome="ignored",service="catalog-test"\} 1/);
    });
  });

  describe('with its own Redis server', () => {
    let server: ChildProcess | undefined;
    let dir: string;
    let port: number;

    const startRedisServer = async () => {
      server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
      const probe = createRedis({ url: `redis://127.0.0.1:${port}`, logger: silentLogger(), name: 'probe' });
      await waitForRedis(probe);
      return probe;
    };
    const stopRedisServer = async () => {
      const child = server;
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    };

    beforeAll(async () => {
      port = await closedPort();
      dir = mkdtempSync(path.join(tmpdir(), 'catalog-events-redis-'));
    });
    afterAll(async () => {
      await stopRedisServer();
      rmSync(dir, { recursive: true, force: true });
    });

    it('keeps consuming across a Redis outage (even one that loses the stream)', async () => {
      let probe = await startRedisServer();
      const url = `redis://127.0.0.1:${port}`;
      startConsumer('instance-outage', { redisUrl: url });
      const before = await userWithData();
      await publishDeletion(before.user, probe);
      await eventually(() => expectErased(before));

      probe.disconnect();
      await stopRedisServer();
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Back, empty (no persistence): the consumer recreates its group and goes on.
      probe = await startRedisServer();
      const after = await userWithData();
      await publishDeletion(after.user, probe);
      await eventually(() => expectErased(after), 20_000);
      probe.disconnect();
    });
  });
});
