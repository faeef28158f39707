import { createServer } from 'node:net';

/**
 * Below Linux's default ephemeral range (32768–60999): a port picked there can be taken by any outgoing
 * connection while its service is down, and a restart on the same port then fails.
 */
const STABLE_PORTS = { from: 20_000, to: 32_767 };

/**
 * A TCP port that was free a moment ago on 127.0.0.1, outside the ephemeral range (so a service can be
 * restarted on it); any free port when none of a few random picks there is free.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = STABLE_PORTS.from + Math.floor(Math.random() * (STABLE_PORTS.to - STABLE_PORTS.from + 1));
    // Not yet bound by whoever asked for it: never hand the same port out twice in one process.
    if (handedOut.has(port) || !(await portIsFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  return ephemeralPort();
}

const handedOut = new Set<number>();

function ephemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether `port` can be listened on at `host` right now. */
export function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
