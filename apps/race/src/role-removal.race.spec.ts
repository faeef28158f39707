import { randomBytes } from 'node:crypto';
import { createCatalogEntry, loginToken, registerUser, type TestUser } from './support/accounts';
import type { HttpAnswer } from './support/http-client';
import { startRaceStack, type RaceStack } from './support/race-stack';
import { after, describeFailures, runTrials, timeoutFor, trialCount } from './support/trials';

// Issue 16 (docs/api.md "Authentication"): a role removed takes effect at once, also on a PAT whose introspection answer
// (with catalog:moderate) sits in the gateway's cache: from the first request sent after the change answered,
// moderation answers 403 while the token keeps working for everything else (list reads 200). The change
// writes a re-introspect marker over the cache entry (not a revocation tombstone, which made the token
// answer 401 for up to 120 s).
const TRIALS = trialCount();
const USE_OFFSETS_MS = [0, 0, 2, 4, 6, 8, 10, 12];
const DEMOTE_OFFSET_MS = 4;

describe('moderator PAT requests racing the removal of the role', () => {
  let race: RaceStack;
  const adminName = `race_admin_${randomBytes(4).toString('hex')}`;
  let admin: TestUser;
  let adminJwt: string;

  beforeAll(async () => {
    race = await startRaceStack('role-removal', { ADMIN_USERNAMES: adminName });
    const { http } = race;
    const answer = await http.post<{ id: string }>('/api/v1/auth/register', { username: adminName, email: `${adminName}@example.com`, password: 'admin-password-long' });
    admin = { id: answer.body.id, username: adminName, email: `${adminName}@example.com`, password: 'admin-password-long' };
    adminJwt = await loginToken(http, admin);
  });
  afterAll(() => race?.stop());

  it(
    "answers the moderator's PAT 403 on moderation and 200 on list reads from the first request sent after the role removal answered",
    async () => {
      const outcome = await runTrials('role removal vs cached moderate PAT', TRIALS, async () => {
        const { http } = race;
        const entryId = await createCatalogEntry(http, adminJwt, 'movies', `Role race ${randomBytes(4).toString('hex')}`);
        const mod = await registerUser(http);
        const granted = await http.put(`/api/v1/auth/users/${mod.id}/role`, { role: 'moderator' }, { token: adminJwt });
        if (granted.status !== 200) return [`grant answered ${granted.status}`];
        const modJwt = await loginToken(http, mod);
        const pat = await http.post<{ token: string }>('/api/v1/auth/tokens', { name: 'moderation', scopes: ['catalog:write', 'catalog:moderate', 'list:read'] }, { token: modJwt });
        if (pat.status !== 201) return [`PAT creation answered ${pat.status}`];
        let year = 1900;
        const use = () => http.request('PATCH', `/api/v1/movies/${entryId}`, { json: { year: (year += 1) }, token: pat.body.token });
        // A moderation route the gateway itself guards by scope: 404 (unknown entry) with catalog:moderate, 403 without.
        const moderate = () => http.request('DELETE', `/api/v1/movies/${'f'.repeat(24)}`, { token: pat.body.token });
        const readList = () => http.request('GET', '/api/v1/movies/list', { token: pat.body.token });
        const warm = await use();
        if (warm.status !== 200) return [`the moderator's PATCH answered ${warm.status} before the change`];
        const warmModerate = await moderate();
        if (warmModerate.status !== 404) return [`the moderator's DELETE of an unknown entry answered ${warmModerate.status} before the change`];

        const inFlight = USE_OFFSETS_MS.map((offset) => after(offset, use));
        const removed = await after(DEMOTE_OFFSET_MS, () => http.put(`/api/v1/auth/users/${mod.id}/role`, { role: 'user' }, { token: adminJwt }));
        if (removed.status !== 200) return [`removal answered ${removed.status}`];
        const problems: string[] = [];
        const expectStatus = (which: string, answer: HttpAnswer<unknown>, status: number) => {
          if (answer.status !== status) problems.push(`${which} answered ${answer.status}, not ${status}`);
        };
        // The first request after the answer: whichever route it is, the token is not revoked, only reduced.
        const [firstModerate, firstRead] = await Promise.all([moderate(), readList()]);
        expectStatus("the moderation request sent right after the removal's 200", firstModerate, 403);
        expectStatus("the list read sent right after the removal's 200", firstRead, 200);
        expectStatus("the PATCH of another user's entry sent right after the removal's 200", await use(), 403);
        const racing = await Promise.all(inFlight);
        const odd = racing.filter((answer) => ![200, 403].includes(answer.status));
        if (odd.length) problems.push(`racing requests answered ${odd.map((answer) => answer.status).join(', ')}`);
        expectStatus('the moderation request sent after the racing ones settled', await moderate(), 403);
        expectStatus('the list read sent after the racing ones settled', await readList(), 200);
        const jwtAnswer = await http.request('PATCH', `/api/v1/movies/${entryId}`, { json: { year: 1899 }, token: modJwt });
        if (jwtAnswer.status !== 401) problems.push(`the moderator JWT minted before the removal answered ${jwtAnswer.status}`);
        return problems;
      });
      if (outcome.failures.length) throw new Error(`${outcome.summary}\n${describeFailures(outcome.failures)}`);
    },
    timeoutFor(TRIALS, 20_000),
  );
});
