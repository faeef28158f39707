import type { Response } from 'express';

export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  /** Undefined when the body was larger than the capture limit. */
  body: Buffer | undefined;
}

/** Response headers worth replaying; the rest are per request (ids, rate limits) or set again by the gateway. */
const REPLAYED_HEADERS = [
  'content-type',
  'location',
  'cache-control',
  'content-disposition',
  'etag',
  'last-modified',
];

type Write = (...args: unknown[]) => boolean;
type End = (...args: unknown[]) => Response;

function toBuffer(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return undefined;
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.from(chunk as Uint8Array);
}

function replayedHeaders(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

/**
 * Copies what `res` sends (status, the replayed headers, up to `limit` body bytes) and calls `settle` with it
 * before the client receives the end of the response: a client that retries the moment it has the answer
 * (through this gateway or another) finds the outcome already recorded, never "still being processed".
 * Up to `limit` bytes are held until then; past it the bytes flow through as they come and the copy has no
 * body. `settle` gets undefined when the connection closed before the response ended (the client left, or the
 * upstream cut it). It is called once, and the response ends whether it succeeds or not.
 */
export function captureResponse(res: Response, limit: number, settle: (response: CapturedResponse | undefined) => Promise<void>): void {
  const held: Buffer[] = [];
  let size = 0;
  let holding = true;
  let settled = false;
  const write = res.write.bind(res) as Write;
  const end = res.end.bind(res) as End;
  const settleOnce = (response: CapturedResponse | undefined) => {
    if (settled) return Promise.resolve();
    settled = true;
    return settle(response);
  };
  const stopHolding = () => {
    holding = false;
    for (const chunk of held.splice(0)) write(chunk);
  };

  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    const buffer = toBuffer(chunk, rest[0]);
    if (holding && buffer) {
      size += buffer.length;
      if (size <= limit) {
        held.push(buffer);
        const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
        if (callback) process.nextTick(callback);
        return true;
      }
      stopHolding();
    }
    return write(chunk, ...rest);
  }) as Response['write'];

  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    const buffer = toBuffer(chunk, rest[0]);
    if (buffer) size += buffer.length;
    const fits = holding && size <= limit;
    if (fits && buffer) held.push(buffer);
    const response = { status: res.statusCode, headers: replayedHeaders(res), body: fits ? Buffer.concat(held) : undefined };
    const callback = rest.find((arg) => typeof arg === 'function');
    void settleOnce(response).finally(() => {
      if (fits) {
        const body = Buffer.concat(held.splice(0));
        if (body.length) end(body, callback);
        else end(callback);
      } else {
        stopHolding();
        end(chunk, ...rest);
      }
    });
    return res;
  }) as Response['end'];

  res.once('close', () => void settleOnce(undefined));
}
