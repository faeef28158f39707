import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** The store URL with host and port replaced by the proxy's (MongoDB URLs get `directConnection=true`). */
  readonly url: string;
  readonly port: number;
  /** The outage: resets every open connection, and every new one as soon as it is accepted. */
  cut(): Promise<void>;
  /** Ends the outage: new connections are relayed again, on the same URL. */
  restore(): Promise<void>;
  /** True between `cut()` and `restore()`. */
  readonly isCut: boolean;
  /** Stops listening and resets every connection: for test clean-up. */
  close(): Promise<void>;
}

/**
 * A TCP relay in front of a real store, so one test can take "the database" down (`cut()`) and bring it back
 * (`restore()`) without stopping the MongoDB or Redis other tests share. MongoDB URLs are rewritten with
 * `directConnection=true`: otherwise the driver would discover the real member address and bypass the proxy.
 * During a cut the port stays bound (connections are reset as they arrive), so no other socket can take it
 * and `restore()` cannot fail; the listener never keeps the process alive on its own.
 */
export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port || (target.protocol.startsWith('redis') ? 6379 : 27017));
  const sockets = new Set<Socket>();
  let isCut = false;
  const server = createServer((client) => {
    if (isCut) {
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
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
  server.unref();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  if (url.protocol.startsWith('mongodb')) url.searchParams.set('directConnection', 'true');
  const resetAll = () => {
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
  };
  return {
    url: url.toString(),
    port,
    get isCut() {
      return isCut;
    },
    cut: async () => {
      isCut = true;
      resetAll();
    },
    restore: async () => {
      isCut = false;
    },
    close: async () => {
      isCut = true;
      const closed = new Promise<void>((resolve) =>
        server.listening ? server.close(() => resolve()) : resolve(),
      );
      resetAll();
      await closed;
    },
  };
}
