import { parseRedisTarget } from './redis-target';

describe('parseRedisTarget', () => {
  it('reads a single server URL as it is', () => {
    expect(parseRedisTarget('redis://:pw@127.0.0.1:6379/0')).toEqual({ kind: 'single', url: 'redis://:pw@127.0.0.1:6379/0' });
    expect(parseRedisTarget('rediss://cache.example.com:6380')).toEqual({ kind: 'single', url: 'rediss://cache.example.com:6380' });
  });

  it('reads a cluster URL as its seed nodes and credentials', () => {
    expect(parseRedisTarget('rediss+cluster://app:s%40cret@r1:7000,r2:7001,[::1]:7002/')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'r1', port: 7000 },
        { host: 'r2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      username: 'app',
      password: 's@cret',
      tls: true,
    });
    expect(parseRedisTarget('redis+cluster://127.0.0.1:7000')).toEqual({ kind: 'cluster', nodes: [{ host: '127.0.0.1', port: 7000 }], tls: false });
  });

  it.each([
    ['not a url', 'must be a URL (redis:, rediss: or redis+cluster:)'],
    ['http://r:6379', 'must be a URL (redis:, rediss: or redis+cluster:)'],
    ['redis+cluster://r1:7000,r2', 'cluster node "r2" is not host:port'],
    ['redis+cluster://r1:99999', 'cluster node "r1:99999" is not host:port'],
    ['redis+cluster://r1:7000/3', 'a cluster URL is redis+cluster://[user:password@]host:port[,host:port…]'],
  ])('refuses %s', (url, message) => {
    expect(() => parseRedisTarget(url)).toThrow(message);
  });
});
