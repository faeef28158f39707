import { hashPat } from '@mt/tokens';
import request from 'supertest';
import { newUserData, startAuthHarness, type AuthHarness } from '../test/auth-harness';
import { asJwtUser, internalHeaders } from '../test/identity-headers';

describe('secrets never leak', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  it('no password, password hash, token or token hash appears in any response or log line', async () => {
    const data = newUserData('secretive');
    const newPassword = 'the-new-secret-passphrase';
    const responses: string[] = [];
    const record = (res: request.Response) => {
      responses.push(res.text, JSON.stringify(res.headers));
      return res;
    };

    const registered = record(await request(h.app).post('/api/v1/auth/register').send(data).expect(201));
    const userId = registered.body.id as string;
    const firstHash = (await h.auth.repositories.users.findById(userId))!.passwordHash;
    expect(firstHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const jwt = record(await request(h.app).post('/api/v1/auth/login').send({ username: data.username, password: data.password }).expect(200)).body
      .access_token as string;
    record(await request(h.app).post('/api/v1/auth/login').send({ username: data.username, password: 'wrong-guess-123' }).expect(401));
    record(await request(h.app).post('/api/v1/auth/login').send({ username: data.email, password: data.password.toUpperCase() }).expect(401));
    record(await request(h.app).get('/api/v1/auth/me').set(asJwtUser(userId)).expect(200));
    // The one response allowed to show the token: its creation (kept out of `responses`).
    const created = await request(h.app).post('/api/v1/auth/tokens').set(asJwtUser(userId)).send({ name: 'leak check' }).expect(201);
    expect(created.text).not.toContain(hashPat(created.body.token));
    const token = created.body.token as string;
    record(await request(h.app).get('/api/v1/auth/tokens').set(asJwtUser(userId)).expect(200));
    record(await request(h.app).post('/internal/introspect').set(internalHeaders()).send({ token }).expect(200));
    record(await request(h.app).post('/internal/introspect').set(internalHeaders()).send({ token: `${token.slice(0, -1)}0` }).expect(200));
    record(await request(h.app).put('/api/v1/auth/password').set(asJwtUser(userId)).send({ current_password: 'not it', new_password: newPassword }).expect(403));
    record(
      await request(h.app)
        .put('/api/v1/auth/password')
        .set(asJwtUser(userId))
        .send({ current_password: data.password, new_password: newPassword, extra: newPassword })
        .expect(400),
    );
    record(await request(h.app).put('/api/v1/auth/password').set(asJwtUser(userId)).send({ current_password: data.password, new_password: newPassword }).expect(200));
    const secondHash = (await h.auth.repositories.users.findById(userId))!.passwordHash;
    record(await request(h.app).delete('/api/v1/auth/me').set(asJwtUser(userId)).expect(200));

    // The token itself is stored nowhere: only its hash, in the token row and the outbox entry.
    const outbox = JSON.stringify(await h.auth.repositories.outbox.model.find({ userId }).lean());
    expect(outbox).not.toContain(token);

    const logs = h.logLines();
    expect(logs.length).toBeGreaterThan(10); // request lines were captured
    const secrets = { password: data.password, newPassword, firstHash, secondHash, token, tokenHash: hashPat(token) };
    for (const [name, secret] of Object.entries(secrets)) {
      expect({ name, inResponses: responses.some((text) => text.includes(secret)) }).toEqual({ name, inResponses: false });
      expect({ name, inLogs: logs.some((line) => line.includes(secret)) }).toEqual({ name, inLogs: false });
    }
    expect(logs.some((line) => line.includes(jwt))).toBe(false);
    // The hash salts/digests separately, too.
    for (const hash of [firstHash, secondHash]) {
      const digest = hash.split('$').pop()!;
      expect(responses.concat(logs).some((text) => text.includes(digest))).toBe(false);
    }
  });
});
