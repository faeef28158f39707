import { declaredImageType, sniffImageType } from './image-type';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('sniffImageType', () => {
  it.each([
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF\0\0\0\0')],
    ['image/png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR')],
    ['image/gif', bytes('GIF89a', [1, 0, 1, 0, 0, 0])],
    ['image/webp', bytes('RIFF', [0, 0, 0, 0], 'WEBP')],
    ['image/avif', bytes([0, 0, 0, 0x1c], 'ftypavif')],
  ])('recognises %s by its signature', (type, head) => {
    expect(sniffImageType(head)).toBe(type);
  });

  it.each([
    ['HTML', bytes('<!DOCTYPE html>')],
    ['SVG', bytes('<svg xmlns="ht')],
    ['nothing', Buffer.alloc(0)],
    ['an MP4 video', bytes([0, 0, 0, 0x18], 'ftypmp42')],
  ])('recognises no image in %s', (_label, head) => {
    expect(sniffImageType(head)).toBeUndefined();
  });
});

describe('declaredImageType', () => {
  it('reads the media type without its parameters, in any case', () => {
    expect(declaredImageType('Image/JPEG; charset=binary')).toBe('image/jpeg');
  });

  it.each([undefined, '', 'text/html', 'image/svg+xml', 'image/x-icon', 'application/octet-stream'])('refuses %j', (value) => {
    expect(declaredImageType(value)).toBeUndefined();
  });
});
