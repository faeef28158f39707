import { createPat, loginToken, registerUser } from './support/accounts';
import type { HttpAnswer } from './support/http-client';
import { startRaceStack, type RaceStack } from './support/race-stack';
import { after, describeFailures, runTrials, sleep, timeoutFor, trialCount } from './support/trials';

// Issue 14, finding 2: an introspection that started before a revocation must not be able to put "active"
// back into the gateway's PAT cache: the revoked PAT fails from the first request sent after the revoke's 200.
const TRIALS = trialCount();
/** First uses of a fresh PAT (nothing cached yet, so each is introspected), around the revocation at 0. */
const USE_OFFSETS_MS = [0, 0, 2, 4, 6, 8, 10, 12, 14, 16];
const REVOKE_OFFSET_MS = 4;
/** When requests are sent after the revoke's response (ms after it, and after the in-flight ones settled). */
const CHECK_DELAYS_MS = [0, 50, 250, 1000];

describe('PAT requests racing DELETE /tokens/{id}', () => {
  let race: RaceStack;

  beforeAll(async () => {
    race = await startRaceStack('pat-revoke');
  });
  afterAll(() => race?.stop());

  it(
    'rejects the revoked PAT on every request sent after the revocation answered',
    async () => {
      const outcome = await runTrials('finding 2 (PAT requests racing its revocation)', TRIALS, async () => {
        const { http } = race;
        const user = await registerUser(http);
        const jwt = await loginToken(http, user);
        const pat = await createPat(http, jwt);
        const use = () => http.get('/api/v1/movies/list', { token: pat.token });

        const inFlight = USE_OFFSETS_MS.map((offset) => after(offset, use));
        const revoked = await after(REVOKE_OFFSET_MS, () =>
          http.delete(`/api/v1/auth/tokens/${pat.id}`, { token: jwt }),
        );
        if (revoked.status !== 200) return [`revoke answered ${revoked.status}`];

        const problems: string[] = [];
        const rejected = (which: string, answer: HttpAnswer<unknown>) => {
          if (answer.status !== 401) problems.push(`${which} answered ${answer.status}`);
        };
        rejected("the request sent right after the revoke's 200", await use());
        const racing = await Promise.all(inFlight);
        const odd = racing.filter((answer) => answer.status !== 200 && answer.status !== 401);
        if (odd.length)
          problems.push(`racing requests answered ${odd.map((answer) => answer.status).join(', ')}`);
        let waited = 0;
        for (const delay of CHECK_DELAYS_MS) {
          await sleep(delay - waited);
          waited = delay;
          rejected(`the request sent ${delay} ms after the racing ones settled`, await use());
        }
        return problems;
      });
      if (outcome.failures.length)
        throw new Error(`${outcome.summary}\n${describeFailures(outcome.failures)}`);
    },
    timeoutFor(TRIALS, 20_000),
  );
});
