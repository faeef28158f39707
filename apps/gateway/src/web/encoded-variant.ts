import type { Request } from 'express';
import { stat } from 'node:fs/promises';
import path from 'node:path';

/** The encodings the web build writes beside each hashed asset (`x.js.br`, `x.js.gz`), best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** Encodings the client takes, by Accept-Encoding (a `q=0` refuses one). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}

/**
 * The pre-compressed file to send for a hashed asset instead of the plain one, or undefined. Compressing
 * once at build time costs nothing per request and gets brotli's best level. A path that does not stay
 * inside `dir` once decoded is left to express.static, which refuses it.
 */
export async function encodedVariant(
  req: Request,
  dir: string,
): Promise<{ encoding: string; url: string } | undefined> {
  if (!/^\/assets\/[^/]+\.(js|css|svg|json)$/.test(req.path)) return undefined;
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  let decoded: string;
  try {
    decoded = decodeURIComponent(req.path);
  } catch {
    return undefined;
  }
  const plain = path.resolve(dir, `.${decoded}`);
  if (!plain.startsWith(dir + path.sep)) return undefined;
  for (const encoding of ENCODINGS) {
    if (!accepted.has(encoding.name)) continue;
    const isFile = await stat(plain + encoding.suffix).then((s) => s.isFile(), () => false);
    if (isFile) return { encoding: encoding.name, url: req.path + encoding.suffix };
  }
  return undefined;
}
