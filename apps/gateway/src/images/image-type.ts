/** The image types the route serves, and the extension their cached files carry (the index is rebuilt from it). */
export const IMAGE_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
} as const;

export type ImageType = keyof typeof IMAGE_TYPES;

export const isImageType = (value: string): value is ImageType => Object.hasOwn(IMAGE_TYPES, value);

export const typeOfExtension = (extension: string): ImageType | undefined =>
  (Object.keys(IMAGE_TYPES) as ImageType[]).find((type) => IMAGE_TYPES[type] === extension);

/** `image/jpeg; charset=…` → `image/jpeg`, if it is one of ours. */
export function declaredImageType(contentType: string | undefined): ImageType | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return isImageType(type) ? type : undefined;
}

/** Bytes enough to tell the types apart by their signatures. */
export const SNIFF_BYTES = 12;

/**
 * The type the bytes themselves say (their file signature), whatever the upstream's header claimed: what is
 * served is then what the browser will decode, and an HTML or SVG page labelled `image/jpeg` is refused.
 */
export function sniffImageType(head: Buffer): ImageType | undefined {
  const ascii = (start: number, end: number) => head.subarray(start, end).toString('latin1');
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp' && (ascii(8, 12) === 'avif' || ascii(8, 12) === 'avis')) return 'image/avif';
  return undefined;
}
