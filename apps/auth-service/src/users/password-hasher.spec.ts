import { loadAuthConfig } from '../config';
import { PasswordHasher } from './password-hasher';

describe('password hasher', () => {
  const config = loadAuthConfig({ INTERNAL_SECRET: 'x'.repeat(32) });
  const hasher = new PasswordHasher({ memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST });

  it('hashes with argon2id at the OWASP parameters by default (m = 19 MiB, t = 2, p = 1)', async () => {
    const hash = await hasher.hash('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(hash).not.toContain('correct horse battery');
  });

  it('verifies the right password and refuses a wrong one or a non-argon2 hash', async () => {
    const hash = await hasher.hash('correct horse battery');
    await expect(hasher.verify(hash, 'correct horse battery')).resolves.toBe(true);
    await expect(hasher.verify(hash, 'wrong horse battery')).resolves.toBe(false);
    await expect(hasher.verify('plain-text', 'plain-text')).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hasher.hash('same password')).not.toBe(await hasher.hash('same password'));
  });

  it('does the same work for the dummy verification and always says no', async () => {
    await expect(hasher.verifyAgainstDummy('anything')).resolves.toBe(false);
  });

  it('asks for a rehash of hashes made with other parameters', async () => {
    const stronger = new PasswordHasher({ memoryCost: 32768, timeCost: 3 });
    expect(stronger.needsRehash(await hasher.hash('pw-pw-pw-pw'))).toBe(true);
    expect(hasher.needsRehash(await hasher.hash('pw-pw-pw-pw'))).toBe(false);
  });

  it('verifies every one of many concurrent logins right when only one hash runs at a time', async () => {
    const single = new PasswordHasher({ memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST, concurrency: 1 });
    const hash = await single.hash('queued password');
    const answers = await Promise.all(['queued password', 'wrong', 'queued password', 'also wrong'].map((password) => single.verify(hash, password)));
    expect(answers).toEqual([true, false, true, false]);
  });
});
