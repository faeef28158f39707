import { createHash } from 'node:crypto';
import { BASE62_ALPHABET, randomBase62, toBase62 } from './base62';
import { generatePat, hashPat, isWellFormedPat, patChecksum, patDisplayPrefix } from './personal-access-token';

/** An independent CRC-32 (IEEE 802.3, reflected, as zlib) so the test does not check the code against itself. */
function referenceCrc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** docs/api.md "Personal access tokens": CRC32 of the 32 random characters, base62 `0-9A-Za-z`, left-padded with `0` to 6. */
function referenceChecksum(randomPart: string): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let value = BigInt(referenceCrc32(randomPart));
  let out = '';
  do {
    out = alphabet[Number(value % 62n)] + out;
    value /= 62n;
  } while (value > 0n);
  return out.padStart(6, '0');
}

const PAT_FORMAT = /^mtp_[0-9A-Za-z]{32}[0-9A-Za-z]{6}$/;

describe('personal access tokens', () => {
  it('look like mtp_ + 32 base62 characters + a 6-character checksum', () => {
    for (let i = 0; i < 50; i++) {
      const token = generatePat();
      expect(token).toMatch(PAT_FORMAT);
      expect(token.slice(36)).toBe(referenceChecksum(token.slice(4, 36)));
    }
  });

  it('checksum: CRC32 of the random part in base62, per the contract (check value of "123456789")', () => {
    expect(referenceCrc32('123456789')).toBe(0xcbf43926);
    expect(patChecksum('123456789')).toBe(referenceChecksum('123456789'));
    expect(patChecksum('123456789')).toBe('3jZRME');
  });

  it('checksum: left-padded with 0 to 6 characters when the CRC is small', () => {
    let randomPart = '';
    do randomPart = randomBase62(32);
    while (referenceCrc32(randomPart) >= 62 ** 5);
    const checksum = patChecksum(randomPart);
    expect(checksum).toHaveLength(6);
    expect(checksum[0]).toBe('0');
    expect(checksum).toBe(referenceChecksum(randomPart));
  });

  it('are recognised as well formed, and tampering with any part is not', () => {
    const token = generatePat();
    expect(isWellFormedPat(token)).toBe(true);
    const flip = (text: string, index: number) => text.slice(0, index) + (text[index] === 'a' ? 'b' : 'a') + text.slice(index + 1);
    expect(isWellFormedPat(flip(token, 10))).toBe(false); // random part
    expect(isWellFormedPat(flip(token, 40))).toBe(false); // checksum
    expect(isWellFormedPat(`mtx_${token.slice(4)}`)).toBe(false);
    expect(isWellFormedPat(token.slice(0, -1))).toBe(false);
    expect(isWellFormedPat(`${token}0`)).toBe(false);
    expect(isWellFormedPat(`${token.slice(0, 20)}-${token.slice(21)}`)).toBe(false);
    expect(isWellFormedPat('')).toBe(false);
  });

  it('are random', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => generatePat()));
    expect(tokens.size).toBe(200);
  });

  it('are stored only as a SHA-256 hex hash and shown only by their first 8 characters', () => {
    const token = generatePat();
    expect(hashPat(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hashPat(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(patDisplayPrefix(token)).toBe(token.slice(0, 8));
    expect(patDisplayPrefix(token).startsWith('mtp_')).toBe(true);
  });
});

describe('base62', () => {
  it('writes numbers with the alphabet 0-9A-Za-z, left-padded', () => {
    expect(BASE62_ALPHABET).toBe('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
    expect(toBase62(0, 6)).toBe('000000');
    expect(toBase62(61, 6)).toBe('00000z');
    expect(toBase62(62, 6)).toBe('000010');
    expect(toBase62(2 ** 32 - 1, 6)).toBe('4gfFC3');
  });

  it('draws only alphabet characters, every one of them eventually', () => {
    const sample = randomBase62(20_000);
    expect(sample).toMatch(/^[0-9A-Za-z]{20000}$/);
    expect(new Set(sample).size).toBe(62);
  });
});
