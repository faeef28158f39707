import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** The store URL with host and port replaced by the proxy's (MongoDB URLs get `directConnection=true`). */
  readonly url: string;
  readonly port: number;
  /** The outage: resets every open connection and refuses new ones. */
  cut(): Promise<void>;
}

/**
 * A TCP relay in front of a real store, so one test can take "the database" down (`cut()`) without
 * stopping the MongoDB or Redis other tests share. MongoDB URLs are rewritten with `directConnection=true`:
 * otherwise the driver would discover the real member address and bypass the proxy.
 */
export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port || (target.protocol.startsWith('redis') ? 6379 : 27017));
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  if (url.protocol.startsWith('mongodb')) url.searchParams.set('directConnection', 'true');
  return {
    url: url.toString(),
    port,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.resetAndDestroy();
      await closed;
    },
  };
}
