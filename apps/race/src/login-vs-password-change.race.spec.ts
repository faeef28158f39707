import { createPat, endpointsAccepting, login, loginToken, registerUser } from './support/accounts';
import { startRaceStack, type RaceStack } from './support/race-stack';
import { after, describeFailures, runTrials, timeoutFor, trialCount } from './support/trials';

// Issue 14, finding 3: a login with the old password in flight during PUT /password must either fail or
// yield a JWT that is rejected once the change has answered.
const TRIALS = trialCount();
const LOGINS_PER_TRIAL = 8;

/**
 * The change commits near the end of its request (after two argon2 runs), and a login reads the hash at
 * its start and signs after one argon2 run: the logins that can lose the race are those sent between
 * (change duration - login duration) and (change duration) after the change. Measured on this stack, so
 * the window holds on a loaded machine too; the logins are spread over it with a margin either side.
 */
async function loginOffsetsAroundChange(race: RaceStack): Promise<number[]> {
  const changes: number[] = [];
  const logins: number[] = [];
  for (let round = 0; round < 3; round++) {
    const user = await registerUser(race.http);
    const started = Date.now();
    const jwt = await loginToken(race.http, user);
    logins.push(Date.now() - started);
    const changeStarted = Date.now();
    await race.http.put(
      '/api/v1/auth/password',
      { current_password: user.password, new_password: 'calibration-password' },
      { token: jwt },
    );
    changes.push(Date.now() - changeStarted);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
  const from = Math.max(0, median(changes) - median(logins) - 30);
  const to = median(changes) + 20;
  return Array.from({ length: LOGINS_PER_TRIAL }, (_, n) =>
    Math.round(from + ((to - from) * n) / (LOGINS_PER_TRIAL - 1)),
  );
}

describe('old-password login racing PUT /password', () => {
  let race: RaceStack;
  let loginOffsetsMs: number[];

  beforeAll(async () => {
    race = await startRaceStack('login-password');
    loginOffsetsMs = await loginOffsetsAroundChange(race);
  });
  afterAll(() => race?.stop());

  it(
    'yields no JWT that works after the change, while the JWT the change returns and older PATs keep working',
    async () => {
      const outcome = await runTrials(
        'finding 3 (old-password login racing PUT /password)',
        TRIALS,
        async (index) => {
          const { http } = race;
          const user = await registerUser(http);
          const jwt = await loginToken(http, user);
          const pat = await createPat(http, jwt);
          const newPassword = `new-password-${index}-long`;

          const logins = loginOffsetsMs.map((offset, n) =>
            after(offset, () => login(http, n % 2 ? user.email : user.username, user.password)),
          );
          const change = http.put<{ access_token?: string }>(
            '/api/v1/auth/password',
            { current_password: user.password, new_password: newPassword },
            { token: jwt },
          );
          const [changed, ...answers] = await Promise.all([change, ...logins]);
          if (changed.status !== 200 || !changed.body.access_token)
            return [`PUT /password answered ${changed.status}`];

          const problems: string[] = [];
          const unexpected = answers.filter((answer) => answer.status !== 200 && answer.status !== 401);
          if (unexpected.length)
            problems.push(`logins answered ${unexpected.map((answer) => answer.status).join(', ')}`);
          const stale = [
            { name: 'the JWT that changed the password', token: jwt },
            ...answers.flatMap((answer, n) =>
              answer.body.access_token
                ? [{ name: `the JWT of old-password login #${n}`, token: answer.body.access_token }]
                : [],
            ),
          ];
          for (const credential of stale) {
            const accepted = await endpointsAccepting(http, credential.token);
            if (accepted.length) problems.push(`${credential.name} still works: ${accepted.join(', ')}`);
          }
          const fresh = await http.get('/api/v1/auth/me', { token: changed.body.access_token });
          if (fresh.status !== 200) problems.push(`the JWT the change returned answered ${fresh.status}`);
          const viaPat = await http.get('/api/v1/movies/list', { token: pat.token });
          if (viaPat.status !== 200) problems.push(`a PAT made before the change answered ${viaPat.status}`);
          const oldAgain = await login(http, user.username, user.password);
          if (oldAgain.status !== 401) problems.push(`the old password still logs in (${oldAgain.status})`);
          const newLogin = await login(http, user.username, newPassword);
          if (newLogin.status !== 200) problems.push(`the new password does not log in (${newLogin.status})`);
          return problems;
        },
      );
      if (outcome.failures.length)
        throw new Error(`${outcome.summary}\n${describeFailures(outcome.failures)}`);
    },
    timeoutFor(TRIALS, 20_000),
  );
});
