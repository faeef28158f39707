import { Redis } from 'ioredis';
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

  it('relays to the store, cuts it off (open and new connections reset) and restores it on the same URL', async () => {
    proxy = await startTcpProxy(testRedisUrl());
    const before = client(proxy.url);
    await before.connect();
    await expect(before.ping()).resolves.toBe('PONG');

    await proxy.cut();
    expect(proxy.isCut).toBe(true);
    await expect(before.ping()).rejects.toThrow();
    // A new connection is reset as soon as it is accepted: the store is unreachable for every client.
    const during = client(proxy.url);
    await expect(during.connect()).rejects.toThrow();
    during.disconnect();

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
