import { errors } from '@mt/errors';
import { BODY_LIMIT_BYTES } from '@mt/http';
import type { Request } from 'express';
import { createHash } from 'node:crypto';

/**
 * Reads the whole body (at most the gateway's body limit: 413 beyond, without reading further), telling
 * `onProgress` the bytes read so far before keeping each chunk (it may throw to stop the read). A client
 * that stalls is cut by the server's request timeout (408); one that leaves rejects this read.
 */
export async function readBody(
  req: Request,
  limit = BODY_LIMIT_BYTES,
  onProgress: (bytes: number) => void = () => undefined,
): Promise<Buffer> {
  // A declared length (already checked against the limit) is read into one buffer of that size: the body is
  // held once, never twice while chunks are joined. The parser delivers no more than the declared length.
  const declared = Number(req.headers['content-length']);
  const whole = Number.isSafeInteger(declared) && declared > 0 && declared <= limit ? Buffer.allocUnsafe(declared) : undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (size + chunk.length > limit) throw errors.payloadTooLarge(`request body exceeds ${Number((limit / (1024 * 1024)).toFixed(2))} MiB`);
    onProgress(size + chunk.length);
    if (whole) chunk.copy(whole, size);
    else chunks.push(chunk);
    size += chunk.length;
  }
  return whole ? whole.subarray(0, size) : Buffer.concat(chunks, size);
}

/** What makes two requests "the same request" for a key: method, path and query, content type and body. */
export function requestFingerprint(req: Request, body: Buffer): string {
  return createHash('sha256')
    .update(`${req.method}\n${req.originalUrl}\n${req.headers['content-type'] ?? ''}\n`)
    .update(body)
    .digest('hex');
}
