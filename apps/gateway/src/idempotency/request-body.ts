import { errors } from '@mt/errors';
import { BODY_LIMIT_BYTES } from '@mt/http';
import type { Request } from 'express';
import { createHash } from 'node:crypto';

/**
 * Reads the whole body (at most the gateway's body limit: 413 beyond, without reading further). A client
 * that stalls is cut by the server's request timeout (408); one that leaves rejects this read.
 */
export async function readBody(req: Request, limit = BODY_LIMIT_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw errors.payloadTooLarge(`request body exceeds ${Number((limit / (1024 * 1024)).toFixed(2))} MiB`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** What makes two requests "the same request" for a key: method, path and query, content type and body. */
export function requestFingerprint(req: Request, body: Buffer): string {
  return createHash('sha256')
    .update(`${req.method}\n${req.originalUrl}\n${req.headers['content-type'] ?? ''}\n`)
    .update(body)
    .digest('hex');
}
