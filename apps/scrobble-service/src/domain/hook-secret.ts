import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url: unguessable, and safe in a URL path segment. */
export const newHookSecret = (): string => randomBytes(32).toString('base64url');

/** What is stored (like a PAT): the secret's SHA-256, never the secret. */
export const hashHookSecret = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/** Compares a stored hash with the hash of a presented secret in constant time. */
export const hashesMatch = (stored: Buffer, presented: Buffer): boolean =>
  stored.length === presented.length && timingSafeEqual(stored, presented);

/** A path segment that could be a secret (anything else is refused before hashing: a 401 all the same). */
export const SECRET_SEGMENT = /^[A-Za-z0-9_-]{20,100}$/;
