import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A recorded payload (test/fixtures/<server>/<name>.json, sources in SOURCES.md) as the server's JSON text. */
export const fixture = (server: 'jellyfin' | 'plex' | 'emby', name: string): string => readFileSync(path.join(__dirname, 'fixtures', server, `${name}.json`), 'utf8');

/** The same payload as an object, to change one field for a test. */
export const fixtureObject = (server: 'jellyfin' | 'plex' | 'emby', name: string): Record<string, unknown> => JSON.parse(fixture(server, name)) as Record<string, unknown>;

/** A small JPEG-like part, as Plex attaches a poster after the payload. */
export const fakeThumbnail = (bytes: number): Buffer => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(Math.max(0, bytes - 4), 0x2d)]);

/** A multipart/form-data body with the given fields and an optional file part, and its content type. */
export function multipartBody(fields: Record<string, string>, file?: { name: string; filename: string; contentType: string; data: Buffer }): { body: Buffer; contentType: string } {
  const boundary = '------------------------a3f8c1e95b7d2f40';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`), file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
