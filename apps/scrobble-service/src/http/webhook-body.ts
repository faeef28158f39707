import { errors } from '@mt/errors';
import type { Request } from 'express';
import type { Server } from '../domain/scrobble-event';

/** The server's JSON (a whole body, a `payload` part, a `data` field) may be at most this large. */
export const WEBHOOK_JSON_LIMIT_BYTES = 1024 * 1024;
/** A multipart body may be larger: Plex attaches a poster after the JSON, which is skipped, never kept. */
export const WEBHOOK_MULTIPART_LIMIT_BYTES = 16 * 1024 * 1024;
const PART_HEADERS_LIMIT = 16 * 1024;

/** The form field that carries the server's JSON in a form body. */
const FORM_FIELD: Partial<Record<Server, string>> = { plex: 'payload', emby: 'data' };

const tooLarge = () => errors.payloadTooLarge(`the webhook's JSON exceeds ${WEBHOOK_JSON_LIMIT_BYTES / 1048576} MiB`);
const notTheFormat = (what: string) => errors.validation(`the body is not this server's format: ${what}`);

const utf8 = (bytes: Buffer): string => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw notTheFormat('not UTF-8 text');
  }
};

async function readWhole(chunks: AsyncIterable<Buffer>, limit: number): Promise<Buffer> {
  const kept: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    kept.push(chunk);
  }
  return Buffer.concat(kept);
}

/**
 * One field of a `multipart/form-data` stream, read as it arrives: the other parts (a poster) pass through
 * and are dropped chunk by chunk, and once the field is read the rest is only counted. Null: no such field.
 */
export async function readFormPart(chunks: AsyncIterable<Buffer>, boundary: string, field: string, limits = { part: WEBHOOK_JSON_LIMIT_BYTES, total: WEBHOOK_MULTIPART_LIMIT_BYTES }): Promise<Buffer | null> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // A leading CRLF lets the first boundary line match the delimiter like every later one.
  let buffer: Buffer = Buffer.from('\r\n');
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  let keep = false;
  let kept: Buffer[] = [];
  let keptBytes = 0;
  let found: Buffer | null = null;
  let total = 0;
  const append = (bytes: Buffer) => {
    if (!keep || !bytes.length) return;
    keptBytes += bytes.length;
    if (keptBytes > limits.part) throw tooLarge();
    kept.push(Buffer.from(bytes));
  };
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > limits.total) throw errors.payloadTooLarge(`the webhook body exceeds ${limits.total / 1048576} MiB`);
    if (state === 'done') continue;
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    for (;;) {
      if (state === 'preamble' || state === 'body') {
        const at = buffer.indexOf(delimiter);
        if (at === -1) {
          // Everything but a tail that may hold the start of the next delimiter.
          const safe = buffer.length - (delimiter.length - 1);
          if (safe > 0) {
            if (state === 'body') append(buffer.subarray(0, safe));
            buffer = buffer.subarray(safe);
          }
          break;
        }
        if (state === 'body' && keep) {
          append(buffer.subarray(0, at));
          found = Buffer.concat(kept);
        }
        buffer = buffer.subarray(at + delimiter.length);
        state = found ? 'done' : 'after-delimiter';
        if (state === 'done') break;
      }
      if (state === 'after-delimiter') {
        if (buffer.length < 2) break;
        if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
          state = 'done';
          break;
        }
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd === -1) break;
        buffer = buffer.subarray(lineEnd + 2);
        state = 'headers';
      }
      if (state === 'headers') {
        const end = buffer.indexOf('\r\n\r\n');
        const headersEnd = end === -1 && buffer.indexOf('\r\n') === 0 ? 0 : end;
        if (headersEnd === -1) {
          if (buffer.length > PART_HEADERS_LIMIT) throw notTheFormat('a multipart part with oversized headers');
          break;
        }
        const headers = buffer.subarray(0, headersEnd).toString('latin1');
        const name = /content-disposition:[^\r\n]*;\s*name="([^"]*)"/i.exec(headers)?.[1];
        keep = name === field;
        kept = [];
        keptBytes = 0;
        buffer = buffer.subarray(headersEnd + (headersEnd === 0 ? 2 : 4));
        state = 'body';
      }
    }
  }
  if (state !== 'done') throw notTheFormat('a truncated multipart body');
  return found;
}

const boundaryOf = (contentType: string): string | null => {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match ? ((match[1] ?? match[2]) as string) : null;
};

/**
 * The server's JSON text from a webhook request, by content type: multipart → the server's field (Plex
 * `payload`, Emby `data`); urlencoded → the same field; anything else → the whole body (Jellyfin's
 * generic destination may label JSON `text/plain`). Never over the limits (413), never a crash (400).
 */
export async function readWebhookBody(req: Request, server: Server): Promise<string> {
  const chunks = req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
  const contentType = String(req.headers['content-type'] ?? '');
  const field = FORM_FIELD[server];
  if (/^multipart\/form-data/i.test(contentType)) {
    const boundary = boundaryOf(contentType);
    if (!boundary) throw notTheFormat('a multipart body without a boundary');
    if (!field) throw notTheFormat(`${server} sends JSON, not a form`);
    const part = await readFormPart(chunks, boundary, field);
    if (!part) throw notTheFormat(`no \`${field}\` part`);
    return utf8(part);
  }
  const text = utf8(await readWhole(chunks, WEBHOOK_JSON_LIMIT_BYTES));
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    if (!field) throw notTheFormat(`${server} sends JSON, not a form`);
    const value = new URLSearchParams(text).get(field);
    if (value === null) throw notTheFormat(`no \`${field}\` field`);
    return value;
  }
  return text;
}
