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

/**
 * Copies what `res` sends (status, the replayed headers, up to `limit` body bytes) while passing every byte
 * through unchanged. Resolves once the response has been sent in full, with undefined if the connection
 * closed before that (the client left, or the response was cut).
 */
export function captureResponse(res: Response, limit: number): Promise<CapturedResponse | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > limit) return;
    const buffer =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size <= limit) chunks.push(buffer);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as Response['end'];

  return new Promise((resolve) => {
    res.once('close', () => {
      if (!res.writableFinished) return resolve(undefined);
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      resolve({ status: res.statusCode, headers, body: size <= limit ? Buffer.concat(chunks) : undefined });
    });
  });
}
