import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a real store (MongoDB or Redis). `down()` resets every connection and refuses
 * new ones — to the services behind it, exactly what a store outage looks like — and `up()` restores it.
 * This lets a test take "the database" down for one stack without stopping the store other tests share.
 */
export class TcpFaultProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static forUrl(url: string): TcpFaultProxy {
    const parsed = new URL(url);
    return new TcpFaultProxy(parsed.hostname, Number(parsed.port));
  }

  /** The store URL with host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString().replace(/\/$/, '');
  }

  async start(port = 0): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  /** The outage: the port stops listening (new connections refused) and open connections are reset. */
  async down(): Promise<void> {
    const closed = new Promise<void>((resolve) => (this.server?.listening ? this.server.close(() => resolve()) : resolve()));
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
    await closed;
  }

  /** Listens again on the same port. */
  async up(): Promise<void> {
    if (this.server?.listening) return;
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  stop(): Promise<void> {
    return this.down();
  }
}
