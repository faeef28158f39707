import { closeRedis, createRedis, waitForRedis } from '@mt/stores';
import { silentLogger, startTcpProxy, testRedisUrl } from '@mt/testing';

it('redis via proxy', async () => {
  const proxy = await startTcpProxy(testRedisUrl());
  const redis = createRedis({ url: proxy.url, logger: silentLogger(), name: 'x' });
  await waitForRedis(redis);
  await closeRedis(redis);
  await proxy.cut();
});
