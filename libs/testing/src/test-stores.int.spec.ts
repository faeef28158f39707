import { Redis } from 'ioredis';
import { connect } from 'node:net';
import { startTcpProxy } from './tcp-proxy';
import { captureLogger } from './test-logger';
import { closedPort, deleteRedisPrefix, testDbName, testRedisPrefix, testRedisUrl } from './test-stores';

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('test store helpers', () => {
  it('name databases and Redis namespaces uniquely per test file', () => {
    expect(testDbName('auth')).toMatch(/^auth_t[0-9a-f]{8}$/);
    expect(testDbName('auth')).not.toBe(testDbName('auth'));
    expect(testRedisPrefix('gw')).toMatch(/^t:gw:[0-9a-f]{8}:$/);
  });

  it('closedPort gives a port nothing listens on', async () => {
    expect(await canConnect(await closedPort())).toBe(false);
  });

  it('deleteRedisPrefix deletes its own keys and no others', async () => {
    const mine = testRedisPrefix('testing');
    const other = testRedisPrefix('testing-other');
    const redis = new Redis(testRedisUrl());
    try {
      await redis.mset(`${mine}a`, '1', `${mine}b:c`, '2', `${other}a`, '3');
      await deleteRedisPrefix(mine);
      expect(await redis.mget(`${mine}a`, `${mine}b:c`, `${other}a`)).toEqual([null, null, '3']);
    } finally {
      await redis.del(`${other}a`);
      redis.disconnect();
    }
  });

  it('startTcpProxy relays to the store, cuts it off and restores it on the same URL', async () => {
    const proxy = await startTcpProxy(testRedisUrl());
    const redis = new Redis(proxy.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50, disconnectTimeout: 50 });
    try {
      expect(await redis.ping()).toBe('PONG');
      await proxy.cut();
      expect(proxy.isCut).toBe(true);
      expect(await canConnect(proxy.port)).toBe(false);
      await proxy.restore();
      expect(await canConnect(proxy.port)).toBe(true);
    } finally {
      redis.disconnect();
      await proxy.close();
    }
  });

  it('captureLogger keeps the lines in memory, with the production safety settings', () => {
    const { logger, lines } = captureLogger('svc');
    logger.info({ password: 'hunter2', err: new Error('boom') }, 'hello');
    const [line] = lines().map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(line).toMatchObject({ level: 30, service: 'svc', msg: 'hello', password: '[redacted]', err: { name: 'Error', message: 'boom' } });
    expect(JSON.stringify(line)).not.toContain('at ');
  });
});
