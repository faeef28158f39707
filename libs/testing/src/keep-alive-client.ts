import { connect } from 'node:net';

/** What a keep-alive client saw after sending a request and then another on the same connection. */
export interface KeepAliveExchange {
  /** The status of each answer, in order. */
  statuses: number[];
  /** From the moment the client had written its next request to that request's answer (undefined: none came). */
  nextAnsweredAfterMs?: number;
  /** From the moment the client had written its next request to the connection's close (undefined: still open). */
  closedAfterMs?: number;
}

/** A request with a body of `body`, as raw bytes: with a Content-Length, or chunked in 64 KiB chunks. */
export function requestWithBody(head: string, body: Buffer, framing: 'content-length' | 'chunked'): Buffer {
  if (framing === 'content-length')
    return Buffer.concat([Buffer.from(`${head}Content-Length: ${body.length}\r\n\r\n`), body]);
  const parts: Buffer[] = [Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n`)];
  for (let start = 0; start < body.length; start += 64 * 1024) {
    const piece = body.subarray(start, start + 64 * 1024);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/**
 * Sends `first` and then `next` on one connection as fast as the server takes them (a keep-alive client
 * does not wait for an answer before sending its next request's bytes), and watches for `watchMs` after
 * `next` was written: whether it was answered, or the connection closed.
 */
export function keepAliveExchange(
  port: number,
  first: Buffer,
  next: string,
  watchMs = 3000,
): Promise<KeepAliveExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const exchange: KeepAliveExchange = { statuses: [] };
    let text = '';
    let writtenAt: number | undefined;
    const since = () => (writtenAt === undefined ? 0 : Date.now() - writtenAt);
    const done = () => {
      socket.destroy();
      resolve(exchange);
    };
    socket.on('error', () => undefined); // a reset while still sending: the close says what happened
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      exchange.statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
      if (exchange.statuses.length === 2 && exchange.nextAnsweredAfterMs === undefined) {
        exchange.nextAnsweredAfterMs = since();
        done();
      }
    });
    socket.on('close', () => {
      exchange.closedAfterMs ??= since();
      resolve(exchange);
    });
    socket.on('connect', () => {
      socket.write(first);
      socket.write(next, () => {
        writtenAt = Date.now();
        setTimeout(done, watchMs);
      });
    });
  });
}
