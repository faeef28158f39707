import { connect, createServer, type Socket } from 'node:net';
import { Transform } from 'node:stream';

export interface TcpProxy {
  /** The store URL with host and port replaced by the proxy's (MongoDB URLs get `directConnection=true`). */
  readonly url: string;
  readonly port: number;
  /** The outage: resets every open connection and refuses new ones. */
  cut(): Promise<void>;
  /** Ends the outage: listens again on the same port, so clients reconnect to the same URL. */
  restore(): Promise<void>;
  /** True between `cut()` and `restore()`. */
  readonly isCut: boolean;
  /** Stops the relay for good (the outage, without a way back): for test clean-up. */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface TcpProxyOptions {
  /** Holds every byte sent to the store this long (a far or busy store): the order is kept. */
  latencyMs?: number;
}

/** Passes chunks on `ms` later, in order (timers of one delay fire in the order they were set). */
function delayed(ms: number): Transform {
  return new Transform({
    transform(chunk, _encoding, callback) {
      setTimeout(() => this.push(chunk), ms);
      callback();
    },
    flush(callback) {
      setTimeout(callback, ms + 1);
    },
  });
}

/**
 * A TCP relay in front of a real store, so one test can take "the database" down (`cut()`) and bring it back
 * (`restore()`) without stopping the MongoDB or Redis other tests share. MongoDB URLs are rewritten with
 * `directConnection=true`: otherwise the driver would discover the real member address and bypass the proxy.
 * With `latencyMs`, what is sent to the store arrives that much later: a store slow to answer one client.
 */
export async function startTcpProxy(targetUrl: string, options: TcpProxyOptions = {}): Promise<TcpProxy> {
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
    if (options.latencyMs) client.pipe(delayed(options.latencyMs)).pipe(upstream);
    else client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  if (url.protocol.startsWith('mongodb')) url.searchParams.set('directConnection', 'true');
  let isCut = false;
  const stopRelaying = async () => {
    const closed = new Promise<void>((resolve) =>
      server.listening ? server.close(() => resolve()) : resolve(),
    );
    // An RST is the realistic outage, but on Node 20 resetAndDestroy() never finishes on a half-closed
    // socket (the event loop spins), so those are simply destroyed.
    for (const socket of sockets) {
      if (socket.readyState === 'open') socket.resetAndDestroy();
      else socket.destroy();
    }
    sockets.clear();
    await closed;
  };
  return {
    url: url.toString(),
    port,
    get isCut() {
      return isCut;
    },
    cut: async () => {
      isCut = true;
      await stopRelaying();
    },
    restore: async () => {
      // While it was free, the port may have become the local end of some outgoing connection: it is
      // released when that connection closes, so try again for a while.
      for (let attempt = 1; !server.listening; attempt++) {
        try {
          await listen(port);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 50) throw error;
          await sleep(100);
        }
      }
      isCut = false;
    },
    close: stopRelaying,
  };
}
