import { writeSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { closeRedis, createRedis, waitForRedis } from '@mt/stores';
import { silentLogger } from '@mt/testing';

it('redis via proxy', async () => {
  const t0 = Date.now();
  const log = (m: string) => writeSync(2, `${Date.now() - t0} ${m}\n`);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(6390, '127.0.0.1');
    log('accepted');
    for (const [name, socket] of [['client', client], ['upstream', upstream]] as const) {
      sockets.add(socket);
      socket.on('end', () => log(`${name} end`));
      socket.on('close', () => { log(`${name} close`); sockets.delete(socket); });
      socket.on('error', (e) => log(`${name} error ${e.message}`));
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const redis = createRedis({ url: `redis://127.0.0.1:${port}`, logger: silentLogger(), name: 'x' });
  await waitForRedis(redis);
  await closeRedis(redis);
  log('closeRedis done');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  log(`server closed, ${sockets.size} sockets`);
  setTimeout(() => log('tick'), 3000).unref();
});
