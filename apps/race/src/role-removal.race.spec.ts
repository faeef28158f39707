import { randomBytes } from 'node:crypto';
import { createCatalogEntry, loginToken, registerUser, type TestUser } from './support/accounts';
import type { HttpAnswer } from './support/http-client';
import { startRaceStack, type RaceStack } from './support/race-stack';
import { after, describeFailures, runTrials, timeoutFor, trialCount } from './support/trials';

// Issue 16 (API.md §13): a role removed takes effect at once, also on a PAT whose introspection answer
// (with catalog:moderate) sits in the gateway's cache: no moderator request sent after the change answered
// succeeds. Known limitation: the cache tombstone makes the gateway answer 401 (not 403) for the user's PATs
// until it expires (120 s); afterwards they are introspected again, without catalog:moderate (403 here).
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
    "refuses the moderator's PAT (401 while the tombstone lives, else 403) from the first request sent after the role removal answered",
    async () => {
      const outcome = await runTrials('role removal vs cached moderate PAT', TRIALS, async () => {
        const { http } = race;
        const entryId = await createCatalogEntry(http, adminJwt, 'movies', `Role race ${randomBytes(4).toString('hex')}`);
        const mod = await registerUser(http);
        const granted = await http.put(`/api/v1/auth/users/${mod.id}/role`, { role: 'moderator' }, { token: adminJwt });
        if (granted.status !== 200) return [`grant answered ${granted.status}`];
        const modJwt = await loginToken(http, mod);
        const pat = await http.post<{ token: string }>('/api/v1/auth/tokens', { name: 'moderation', scopes: ['catalog:write', 'catalog:moderate'] }, { token: modJwt });
        if (pat.status !== 201) return [`PAT creation answered ${pat.status}`];
        let year = 1900;
        const use = () => http.request('PATCH', `/api/v1/movies/${entryId}`, { json: { year: (year += 1) }, token: pat.body.token });
        const warm = await use();
        if (warm.status !== 200) return [`the moderator's PATCH answered ${warm.status} before the change`];

        const inFlight = USE_OFFSETS_MS.map((offset) => after(offset, use));
        const removed = await after(DEMOTE_OFFSET_MS, () => http.put(`/api/v1/auth/users/${mod.id}/role`, { role: 'user' }, { token: adminJwt }));
        if (removed.status !== 200) return [`removal answered ${removed.status}`];
        const problems: string[] = [];
        const forbidden = (which: string, answer: HttpAnswer<unknown>) => {
          if (answer.status !== 403 && answer.status !== 401) problems.push(`${which} answered ${answer.status}`);
        };
        forbidden("the PATCH sent right after the removal's 200", await use());
        const racing = await Promise.all(inFlight);
        const odd = racing.filter((answer) => ![200, 401, 403].includes(answer.status));
        if (odd.length) problems.push(`racing requests answered ${odd.map((answer) => answer.status).join(', ')}`);
        forbidden('the PATCH sent after the racing ones settled', await use());
        const jwtAnswer = await http.request('PATCH', `/api/v1/movies/${entryId}`, { json: { year: 1899 }, token: modJwt });
        if (jwtAnswer.status !== 401) problems.push(`the moderator JWT minted before the removal answered ${jwtAnswer.status}`);
        return problems;
      });
      if (outcome.failures.length) throw new Error(`${outcome.summary}\n${describeFailures(outcome.failures)}`);
    },
    timeoutFor(TRIALS, 20_000),
  );
});
