import type { Express } from 'express';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  url: string;
  port: number;
  /** Connections accepted so far (raw TCP servers count them too). */
  connections: () => number;
  close: () => Promise<void>;
}

function track(server: Server | NetServer): { sockets: Set<Socket>; count: () => number } {
  const sockets = new Set<Socket>();
  let count = 0;
  server.on('connection', (socket: Socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return { sockets, count: () => count };
}

async function listen(server: Server | NetServer): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** A real HTTP server on a free port; `close` drops every connection (like a killed process). */
export async function startHttpServer(handler: Express | RequestListener): Promise<RunningServer> {
  const server = createHttpServer(handler as RequestListener);
  server.keepAliveTimeout = 65_000;
  const tracked = track(server);
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: tracked.count,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A TCP server that misbehaves at the HTTP level (resets, garbage). */
export async function startTcpServer(onSocket: (socket: Socket) => void): Promise<RunningServer> {
  const server = createNetServer(onSocket);
  const tracked = track(server);
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: tracked.count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of tracked.sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Accepts, reads the request, then resets the connection without answering. */
export const startResettingServer = () =>
  startTcpServer((socket) => {
    socket.once('data', () => socket.resetAndDestroy());
    socket.on('error', () => undefined);
  });

/** Answers every request with bytes that are not HTTP. */
export const startGarbageServer = () =>
  startTcpServer((socket) => {
    socket.once('data', () => socket.end('this is not HTTP at all\r\n\r\n'));
    socket.on('error', () => undefined);
  });

/**
 * Answers the first request of each connection (keep-alive), then resets the connection on the second:
 * what a keep-alive socket looks like when the upstream dropped it just as the gateway reused it.
 */
export const startOneRequestPerConnectionServer = () =>
  startTcpServer((socket) => {
    let requests = 0;
    socket.on('data', (chunk: Buffer) => {
      if (!/^[A-Z]+ \S+ HTTP\/1\.1\r\n/.test(chunk.toString('latin1'))) return;
      requests += 1;
      if (requests > 1) {
        socket.resetAndDestroy();
        return;
      }
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n' +
          'Connection: keep-alive\r\nKeep-Alive: timeout=60\r\n\r\n{"ok":true}',
      );
    });
    socket.on('error', () => undefined);
  });
