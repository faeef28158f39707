import { Redis } from 'ioredis';
import { connect } from 'node:net';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';
import { testRedisUrl } from './test-stores';

const client = (url: string) =>
  new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectTimeout: 1000,
    disconnectTimeout: 100,
  });

describe('startTcpProxy', () => {
  let proxy: TcpProxy;
  afterEach(() => proxy?.close());

  it('relays to the store, cuts it off (open connections reset, new ones refused) and restores it on the same URL', async () => {
    proxy = await startTcpProxy(testRedisUrl());
    const before = client(proxy.url);
    await before.connect();
    await expect(before.ping()).resolves.toBe('PONG');

    await proxy.cut();
    expect(proxy.isCut).toBe(true);
    await expect(before.ping()).rejects.toThrow();
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(proxy.port, '127.0.0.1', () => resolve('connected'));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    expect(refused).toBe('ECONNREFUSED');

    await proxy.restore();
    expect(proxy.isCut).toBe(false);
    const after = client(proxy.url);
    await after.connect();
    await expect(after.ping()).resolves.toBe('PONG');
    after.disconnect();
    before.disconnect();
  });

  it('adds directConnection=true to MongoDB URLs, so the driver stays behind the relay', async () => {
    proxy = await startTcpProxy('mongodb://127.0.0.1:27017/?replicaSet=rs0');
    const url = new URL(proxy.url);
    expect({
      host: url.hostname,
      port: Number(url.port),
      direct: url.searchParams.get('directConnection'),
    }).toEqual({
      host: '127.0.0.1',
      port: proxy.port,
      direct: 'true',
    });
  });
});
