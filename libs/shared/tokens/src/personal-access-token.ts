import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { randomBase62, toBase62 } from './base62';

/** `mtp_` + 32 random base62 + 6-character base62 CRC32 of the random part (docs/api.md "Personal access tokens"). */
export const PAT_PREFIX = 'mtp_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const PAT_SHAPE = /^mtp_[0-9A-Za-z]{38}$/;
/** What the token list shows: safe to display, too short to use. */
export const PAT_DISPLAY_PREFIX_LENGTH = 8;

export const patChecksum = (randomPart: string): string => toBase62(crc32(randomPart), CHECKSUM_LENGTH);

export function generatePat(): string {
  const randomPart = randomBase62(RANDOM_LENGTH);
  return `${PAT_PREFIX}${randomPart}${patChecksum(randomPart)}`;
}

/** Shape and checksum only: a malformed token is rejected without touching any store. */
export function isWellFormedPat(token: string): boolean {
  if (!PAT_SHAPE.test(token)) return false;
  const randomPart = token.slice(PAT_PREFIX.length, PAT_PREFIX.length + RANDOM_LENGTH);
  return token.slice(PAT_PREFIX.length + RANDOM_LENGTH) === patChecksum(randomPart);
}

export const looksLikePat = (credential: string): boolean => credential.startsWith(PAT_PREFIX);

/** Only this hash is ever stored or used as a cache key. */
export const hashPat = (token: string): string => createHash('sha256').update(token).digest('hex');

export const patDisplayPrefix = (token: string): string => token.slice(0, PAT_DISPLAY_PREFIX_LENGTH);
