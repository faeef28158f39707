import { silentLogger } from '@mt/testing';
import jwt from 'jsonwebtoken';
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jwkThumbprint } from './jwk';
import { JwtSigner } from './jwt-signer';
import { GENERATED_KEY_FILE, JwtKeyError, loadJwtKeys } from './key-store';

const ecPem = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

describe('JWT key store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'auth-keys-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a key once in JWT_KEY_DIR (directory 0700, file 0600) and reuses it after a restart', () => {
    const keyDir = path.join(dir, 'nested', 'auth-keys');
    const first = loadJwtKeys({ JWT_KEY_DIR: keyDir }, silentLogger());
    expect(first.source).toBe('generated');
    expect(statSync(keyDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(keyDir, GENERATED_KEY_FILE)).mode & 0o777).toBe(0o600);
    const second = loadJwtKeys({ JWT_KEY_DIR: keyDir }, silentLogger());
    expect(second.source).toBe('stored');
    expect(second.kid).toBe(first.kid);
  });

  it('uses a PEM from JWT_PRIVATE_KEY (also with \\n escapes) or from JWT_PRIVATE_KEY_FILE', () => {
    const pem = ecPem();
    const inline = loadJwtKeys({ JWT_PRIVATE_KEY: pem.replace(/\n/g, '\\n'), JWT_KEY_DIR: dir }, silentLogger());
    const file = path.join(dir, 'key.pem');
    writeFileSync(file, pem);
    const fromFile = loadJwtKeys({ JWT_PRIVATE_KEY_FILE: file, JWT_KEY_DIR: dir }, silentLogger());
    expect(inline.source).toBe('env');
    expect(fromFile.source).toBe('file');
    expect(fromFile.kid).toBe(inline.kid);
  });

  it('refuses a key that is not EC P-256, or not a key at all, naming the variable', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => loadJwtKeys({ JWT_PRIVATE_KEY: rsa, JWT_KEY_DIR: dir }, silentLogger())).toThrow(new JwtKeyError('JWT_PRIVATE_KEY: must be an EC P-256 key (ES256)'));
    expect(() => loadJwtKeys({ JWT_PRIVATE_KEY: 'garbage', JWT_KEY_DIR: dir }, silentLogger())).toThrow(/JWT_PRIVATE_KEY: not a readable PEM private key/);
    expect(() => loadJwtKeys({ JWT_PRIVATE_KEY_FILE: path.join(dir, 'missing.pem'), JWT_KEY_DIR: dir }, silentLogger())).toThrow(/ENOENT/);
  });

  it('uses the RFC 7638 thumbprint as kid', () => {
    const keys = loadJwtKeys({ JWT_PRIVATE_KEY: ecPem(), JWT_KEY_DIR: dir }, silentLogger());
    const jwk = createPublicKey(keys.privateKey).export({ format: 'jwk' });
    // Hand-built canonical form: required members only, lexicographic order, no whitespace.
    const canonical = `{"crv":"P-256","kty":"EC","x":"${jwk.x}","y":"${jwk.y}"}`;
    const expected = createHash('sha256').update(canonical).digest('base64url');
    expect(keys.kid).toBe(expected);
    expect(jwkThumbprint({ crv: 'P-256', kty: 'EC', x: jwk.x!, y: jwk.y! })).toBe(expected);
  });

  it('publishes the previous public key next to the current one during a rotation', () => {
    const previous = ecPem();
    const previousPublic = createPublicKey(previous).export({ format: 'pem', type: 'spki' }).toString();
    const keys = loadJwtKeys({ JWT_PRIVATE_KEY: ecPem(), JWT_PREVIOUS_PUBLIC_KEY: previousPublic, JWT_KEY_DIR: dir }, silentLogger());
    expect(keys.jwks.keys).toHaveLength(2);
    expect(keys.jwks.keys[0]!.kid).toBe(keys.kid);
    // A JWT signed with the previous key verifies with the second published key.
    const oldToken = jwt.sign({}, previous, { algorithm: 'ES256', keyid: keys.jwks.keys[1]!.kid });
    expect(() => jwt.verify(oldToken, createPublicKey({ key: keys.jwks.keys[1]!, format: 'jwk' }), { algorithms: ['ES256'] })).not.toThrow();
    // The private half is never published.
    expect(JSON.stringify(keys.jwks)).not.toContain('"d"');
  });

  it('signs JWTs that carry the cut-off they were minted under (0 before any), iat_ms and exp', () => {
    const keys = loadJwtKeys({ JWT_PRIVATE_KEY: ecPem(), JWT_KEY_DIR: dir }, silentLogger());
    const signer = new JwtSigner(keys, { issuer: 'i', audience: 'a', ttlSeconds: 60 });
    const before = Date.now();
    const issued = signer.sign('665f1f0c2a4b7e0012345678', 1_700_000_000_123);
    const claims = jwt.decode(issued.accessToken) as { iat_ms: number; iat: number; exp: number; cutoff_ms: number };
    expect(claims.cutoff_ms).toBe(1_700_000_000_123);
    expect(claims.iat_ms).toBeGreaterThanOrEqual(before);
    expect(claims.iat).toBe(Math.floor(claims.iat_ms / 1000));
    expect(claims.exp).toBe(claims.iat + 60);
    expect((jwt.decode(signer.sign('665f1f0c2a4b7e0012345678', null).accessToken) as { cutoff_ms: number }).cutoff_ms).toBe(0);
  });
});
