import type { Jwks } from '@mt/contracts';
import type { Logger } from '@mt/logging';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import path from 'node:path';
import { isP256Key, publicJwkOf } from './jwk';

export interface JwtKeySettings {
  JWT_PRIVATE_KEY?: string;
  JWT_PRIVATE_KEY_FILE?: string;
  JWT_PREVIOUS_PUBLIC_KEY?: string;
  JWT_PREVIOUS_PUBLIC_KEY_FILE?: string;
  JWT_KEY_DIR: string;
}

/** The signing key and what the JWKS publishes (current key first, then the previous one if any). */
export interface JwtKeySet {
  privateKey: KeyObject;
  kid: string;
  jwks: Jwks;
  source: 'env' | 'file' | 'generated' | 'stored';
}

export class JwtKeyError extends Error {
  override name = 'JwtKeyError';
}

export const GENERATED_KEY_FILE = 'jwt-signing-key.pem';

/** Environment variables cannot always hold newlines; accept `\n` escapes in inline PEM. */
const unescapePem = (pem: string): string => pem.replace(/\\n/g, '\n').trim();

function readKeyFile(file: string, variable: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new JwtKeyError(`${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new JwtKeyError(`cannot read ${file} (${code ?? 'error'})`);
  }
}

function parsePrivateKey(pem: string, variable: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(unescapePem(pem));
  } catch {
    throw new JwtKeyError(`${variable}: not a readable PEM private key`);
  }
  if (!isP256Key(key)) throw new JwtKeyError(`${variable}: must be an EC P-256 key (ES256)`);
  return key;
}

function parsePublicKey(pem: string, variable: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(unescapePem(pem));
  } catch {
    throw new JwtKeyError(`${variable}: not a readable PEM public key`);
  }
  if (!isP256Key(key)) throw new JwtKeyError(`${variable}: must be an EC P-256 key (ES256)`);
  return key;
}

/**
 * Local development: a key generated once and kept on disk (directory 0700, file 0600), so restarts
 * do not log everyone out. Written to a temporary file and hard-linked into place, so two instances
 * starting together end up with the same key and no one ever reads a half-written file.
 */
function storedOrGeneratedKey(dir: string, logger: Logger): { key: KeyObject; generated: boolean } {
  const file = path.resolve(dir, GENERATED_KEY_FILE);
  const existing = readIfExists(file);
  if (existing !== undefined) return { key: parsePrivateKey(existing, file), generated: false };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  chmodSync(path.dirname(file), 0o700);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another instance won the race: use its key.
    return { key: parsePrivateKey(readFileSync(file, 'utf8'), file), generated: false };
  } finally {
    unlinkSync(temporary);
  }
  logger.warn({ file }, 'generated a JWT signing key for local development; set JWT_PRIVATE_KEY(_FILE) in production');
  return { key: privateKey, generated: true };
}

export function loadJwtKeys(settings: JwtKeySettings, logger: Logger): JwtKeySet {
  let privateKey: KeyObject;
  let source: JwtKeySet['source'];
  if (settings.JWT_PRIVATE_KEY) {
    privateKey = parsePrivateKey(settings.JWT_PRIVATE_KEY, 'JWT_PRIVATE_KEY');
    source = 'env';
  } else if (settings.JWT_PRIVATE_KEY_FILE) {
    privateKey = parsePrivateKey(readKeyFile(settings.JWT_PRIVATE_KEY_FILE, 'JWT_PRIVATE_KEY_FILE'), 'JWT_PRIVATE_KEY_FILE');
    source = 'file';
  } else {
    const stored = storedOrGeneratedKey(settings.JWT_KEY_DIR, logger);
    privateKey = stored.key;
    source = stored.generated ? 'generated' : 'stored';
  }
  const current = publicJwkOf(createPublicKey(privateKey));
  const keys = [current];

  const previousPem = settings.JWT_PREVIOUS_PUBLIC_KEY_FILE
    ? readKeyFile(settings.JWT_PREVIOUS_PUBLIC_KEY_FILE, 'JWT_PREVIOUS_PUBLIC_KEY_FILE')
    : settings.JWT_PREVIOUS_PUBLIC_KEY;
  if (previousPem) {
    const previous = publicJwkOf(parsePublicKey(previousPem, 'JWT_PREVIOUS_PUBLIC_KEY'));
    if (previous.kid !== current.kid) keys.push(previous);
  }
  logger.debug({ kid: current.kid, source, published_keys: keys.length }, 'JWT signing key loaded');
  return { privateKey, kid: current.kid, jwks: { keys }, source };
}
