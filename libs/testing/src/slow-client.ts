import { connect } from 'node:net';

export interface SlowClientAnswer {
  status: number;
  headers: Map<string, string>;
  body: unknown;
  /** From the first byte sent to the server closing the connection. */
  elapsedMs: number;
}

export interface SlowClientOptions {
  /** Keeps sending this every `everyMs` (a trickle that never ends the request) until the server answers. */
  trickle?: { bytes: string; everyMs: number };
  /** Gives up (rejects) after this long without the server closing the connection. */
  giveUpAfterMs?: number;
}

/**
 * A client that starts a request and never finishes it: sends `bytes` exactly as given over a raw socket
 * (optionally trickling more), then waits for the server to answer and close. Resolves with the first
 * response (status, lower-cased headers, parsed JSON body) and how long it took.
 */
export function sendAndStall(
  port: number,
  bytes: string,
  options: SlowClientOptions = {},
): Promise<SlowClientAnswer> {
  const giveUpAfterMs = options.giveUpAfterMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let startedAt = Date.now();
    let trickle: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server did not close the connection within ${giveUpAfterMs} ms`));
    }, giveUpAfterMs);
    socket.on('connect', () => {
      startedAt = Date.now();
      socket.write(bytes);
      if (options.trickle) {
        const { bytes: more, everyMs } = options.trickle;
        trickle = setInterval(() => socket.writable && socket.write(more), everyMs);
      }
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset after the answer is fine: the answer is what counts
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearInterval(trickle);
      const elapsedMs = Date.now() - startedAt;
      const wire = Buffer.concat(chunks).toString('utf8');
      const headerEnd = wire.indexOf('\r\n\r\n');
      if (headerEnd < 0)
        return reject(
          new Error(`no HTTP answer before the close (got ${JSON.stringify(wire.slice(0, 200))})`),
        );
      const [statusLine = '', ...lines] = wire.slice(0, headerEnd).split('\r\n');
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      const text = wire.slice(headerEnd + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: the caller's check says so
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, elapsedMs });
    });
  });
}
