import { request } from 'node:http';
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Map<string, string[]>;
  text: string;
  body: unknown;
  /** Everything the server wrote (for leak scans). */
  wire: string;
}

/** The first value of a header, with the case-insensitive lookup `Headers` offers. */
export const rawHeaders = (answer: RawAnswer) => ({
  get: (name: string) => answer.headers.get(name.toLowerCase())?.[0] ?? null,
});

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < body.length) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = parseInt(body.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * Sends bytes exactly as given (CR/LF inside headers, conflicting framing...) and reads the answer until the
 * server closes the connection or `timeoutMs` passes. Only the first response is parsed.
 */
export function sendRaw(port: number, bytes: string | Buffer, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`no complete answer within ${timeoutMs} ms (got ${Buffer.concat(chunks).length} bytes)`),
      );
    }, timeoutMs);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset after the answer is fine: the answer is what counts
    socket.on('close', () => {
      clearTimeout(timer);
      const wire = Buffer.concat(chunks);
      const headerEnd = wire.indexOf('\r\n\r\n');
      if (headerEnd < 0)
        return reject(
          new Error(`no HTTP answer (got ${JSON.stringify(wire.toString('latin1').slice(0, 200))})`),
        );
      const [statusLine = '', ...headerLines] = wire.subarray(0, headerEnd).toString('latin1').split('\r\n');
      const headers = new Map<string, string[]>();
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
      }
      let body: Buffer = wire.subarray(headerEnd + 4);
      const length = headers.get('content-length')?.[0];
      if (headers.get('transfer-encoding')?.[0]?.toLowerCase() === 'chunked') body = dechunk(body);
      else if (length !== undefined) body = body.subarray(0, Number(length));
      const text = body.toString('utf8');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the caller's check says so
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        text,
        body: parsed,
        wire: wire.toString('latin1'),
      });
    });
  });
}

/**
 * POSTs `bytes` of JSON-looking text in 64 KiB chunks without a Content-Length (chunked encoding), so only
 * the receiving parser can enforce the body limit. Resolves with the first answer, even one sent early.
 */
export function sendChunked(
  url: string,
  path: string,
  bytes: number,
  headers: Record<string, string>,
  timeoutMs = 10_000,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: 'POST',
      agent: false,
      headers: { ...headers, 'content-type': 'application/json' },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      const finish = () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // the caller's check says so
        }
        const map = new Map<string, string[]>();
        for (const [name, value] of Object.entries(res.headers))
          map.set(name, Array.isArray(value) ? value : [String(value)]);
        resolve({ status: res.statusCode ?? 0, headers: map, text, body, wire: text });
      };
      res.on('end', finish);
      res.on('error', finish);
    });
    req.on('error', (error) => {
      if (answered) return;
      clearTimeout(timer);
      reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    req.write('{"x":"');
    const pump = () => {
      while (sent < bytes && !answered && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered && !req.destroyed) req.end('"}');
    };
    pump();
  });
}
