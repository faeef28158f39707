import { fakeThumbnail, multipartBody } from '../../test/fixtures';
import { readFormPart } from './webhook-body';

async function* inChunks(body: Buffer, size: number): AsyncIterable<Buffer> {
  for (let at = 0; at < body.length; at += size) yield body.subarray(at, at + size);
}

const boundaryOf = (contentType: string) => contentType.split('boundary=')[1] as string;

describe('reading one field of a multipart body', () => {
  const payload = JSON.stringify({ event: 'media.scrobble', Metadata: { title: 'Ünïcode ✓' } });

  it.each([1, 7, 64, 100_000])('finds the field whatever the chunk size (%i bytes)', async (size) => {
    const { body, contentType } = multipartBody({ payload }, { name: 'thumb', filename: 'poster.jpg', contentType: 'image/jpeg', data: fakeThumbnail(5000) });
    const part = await readFormPart(inChunks(body, size), boundaryOf(contentType), 'payload');
    expect(part?.toString('utf8')).toBe(payload);
  });

  it('skips a part before the field without keeping it', async () => {
    const { body, contentType } = multipartBody({ other: 'x'.repeat(3 * 1024 * 1024), payload });
    const part = await readFormPart(inChunks(body, 65536), boundaryOf(contentType), 'payload', { part: 1024 * 1024, total: 16 * 1024 * 1024 });
    expect(part?.toString('utf8')).toBe(payload);
  });

  it('refuses a field over its limit and a body over the total', async () => {
    const { body, contentType } = multipartBody({ payload: 'x'.repeat(2048) });
    await expect(readFormPart(inChunks(body, 512), boundaryOf(contentType), 'payload', { part: 1024, total: 1_000_000 })).rejects.toMatchObject({ code: 'payload_too_large' });
    await expect(readFormPart(inChunks(body, 512), boundaryOf(contentType), 'payload', { part: 100_000, total: 1024 })).rejects.toMatchObject({ code: 'payload_too_large' });
  });

  it('answers null without the field and refuses a truncated body', async () => {
    const { body, contentType } = multipartBody({ data: '{}' });
    await expect(readFormPart(inChunks(body, 10), boundaryOf(contentType), 'payload')).resolves.toBeNull();
    await expect(readFormPart(inChunks(body.subarray(0, 40), 10), boundaryOf(contentType), 'payload')).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
