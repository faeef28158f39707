/**
 * CPU per login-JWT verification, side by side in one process (issue 13, "Libraries judged" in bench/README.md):
 * the gateway's path (jsonwebtoken + its hand-written JWKS client) against jose's `jwtVerify`, with the
 * hand-written key lookup and with jose's own `createRemoteJWKSet` (warmed: the cache-hit path every request
 * takes). Same ES256 token, same checks (algorithm pinned, issuer, audience, expiry).
 *   node tools/build/build-app.mjs bench src/micro/jwt-verify.ts && node dist/bench/jwt-verify.js
 */
import { generateKeyPairSync, KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import { JWT_ALGORITHM } from '@mt/contracts';
import { createLogger } from '@mt/logging';
import { JwksClient } from '../service-code';
import { compareInterleaved, printResults } from './interleaved';

const issuer = 'bench-auth';
const audience = 'bench-gateway';
const kid = 'bench-key-1';
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: JWT_ALGORITHM, use: 'sig' }] };
const token = jwt.sign({ sub: 'u1', jti: 't1', iat_ms: Date.now(), cutoff_ms: 0 }, privateKey, {
  algorithm: JWT_ALGORITHM,
  keyid: kid,
  issuer,
  audience,
  expiresIn: '1h',
});

const logger = createLogger({ service: 'bench', level: 'warn' });
const handWritten = new JwksClient({ fetchJwks: async () => jwks, logger });
const remote = createRemoteJWKSet(new URL('http://auth.invalid/.well-known/jwks.json'), {
  [customFetch]: async () =>
    new Response(JSON.stringify(jwks), { headers: { 'content-type': 'application/json' } }),
});
const options = { algorithms: [JWT_ALGORITHM] as jwt.Algorithm[], issuer, audience };

/** The gateway's path today (jwt-verifier.ts): decode, pin the algorithm, look the key up, verify. */
async function jsonwebtokenWith(getKey: (kid: string) => Promise<KeyObject | undefined>) {
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded || decoded.header.alg !== JWT_ALGORITHM || !decoded.header.kid) throw new Error('bad header');
  const key = await getKey(decoded.header.kid);
  if (!key) throw new Error('unknown kid');
  return jwt.verify(token, key, options);
}

async function main() {
  // Each contender verifies once first: the token must pass all four ways.
  const contenders = [
    {
      name: 'jsonwebtoken + hand-written JWKS client (today)',
      op: () => jsonwebtokenWith((k) => handWritten.getKey(k)),
    },
    {
      name: 'jose jwtVerify + hand-written JWKS client',
      op: () =>
        jwtVerify(
          token,
          (header: { kid?: string }) => handWritten.getKey(header.kid ?? '') as Promise<KeyObject>,
          options,
        ),
    },
    { name: 'jose jwtVerify + jose createRemoteJWKSet', op: () => jwtVerify(token, remote, options) },
    {
      name: 'jsonwebtoken + jose createRemoteJWKSet',
      op: () => jsonwebtokenWith(async (k) => KeyObject.from(await remote({ alg: JWT_ALGORITHM, kid: k }))),
    },
  ];
  for (const { op } of contenders) await op();
  const rounds = Number(process.env['ROUNDS'] ?? 15);
  const opsPerRound = Number(process.env['OPS'] ?? 1000);
  printResults(
    `ES256 JWT verification, ${rounds} interleaved rounds × ${opsPerRound}`,
    await compareInterleaved(contenders, { rounds, opsPerRound }),
  );
}

void main();
