import {
  createCatalogEntry,
  createPat,
  endpointsAccepting,
  login,
  loginToken,
  registerUser,
} from './support/accounts';
import { CATEGORIES, startRaceStack, type RaceStack } from './support/race-stack';
import { after, describeFailures, runTrials, timeoutFor, trialCount } from './support/trials';

// Issue 14, finding 1: a login in flight during DELETE /me must not return a JWT that outlives the deletion.
const TRIALS = trialCount();
/** Logins sent this many ms after the start of a trial; the deletion goes out in the middle of them. */
const LOGIN_OFFSETS_MS = [0, 8, 16, 24, 32, 40, 48];
const DELETE_OFFSET_MS = 30;

describe('login racing DELETE /me', () => {
  let race: RaceStack;
  let movieId: string;

  beforeAll(async () => {
    race = await startRaceStack('login-delete');
    const owner = await registerUser(race.http);
    movieId = await createCatalogEntry(
      race.http,
      await loginToken(race.http, owner),
      'movies',
      'Race Condition',
    );
  });
  afterAll(() => race?.stop());

  it(
    'leaves no working JWT or PAT and no list entry of the deleted user',
    async () => {
      const outcome = await runTrials('finding 1 (login racing DELETE /me)', TRIALS, async () => {
        const { http } = race;
        const user = await registerUser(http);
        const jwt = await loginToken(http, user);
        const pat = await createPat(http, jwt);
        const added = await http.post('/api/v1/movies/list', { item_id: movieId }, { token: jwt });
        if (added.status !== 201) return [`list add before the race answered ${added.status}`];

        const logins = LOGIN_OFFSETS_MS.map((offset, index) =>
          after(offset, () => login(http, index % 2 ? user.email : user.username, user.password)),
        );
        const deletion = after(DELETE_OFFSET_MS, () => http.delete('/api/v1/auth/me', { token: jwt }));
        const [deleted, ...answers] = await Promise.all([deletion, ...logins]);

        const problems: string[] = [];
        if (deleted.status !== 200) return [`DELETE /me answered ${deleted.status}`];
        const unexpected = answers.filter((answer) => answer.status !== 200 && answer.status !== 401);
        if (unexpected.length)
          problems.push(`logins answered ${unexpected.map((answer) => answer.status).join(', ')}`);
        const credentials = [
          { name: 'the JWT that deleted the account', token: jwt },
          { name: 'a PAT made before', token: pat.token },
          ...answers.flatMap((answer, index) =>
            answer.body.access_token
              ? [{ name: `the JWT of login #${index}`, token: answer.body.access_token }]
              : [],
          ),
        ];
        for (const credential of credentials) {
          const accepted = await endpointsAccepting(http, credential.token);
          if (accepted.length) problems.push(`${credential.name} still works: ${accepted.join(', ')}`);
        }
        await race.waitForEventsConsumed();
        for (const category of CATEGORIES) {
          const left = await race.countListEntries(category, user.id);
          if (left) problems.push(`${left} ${category} list entries left`);
        }
        return problems;
      });
      if (outcome.failures.length)
        throw new Error(`${outcome.summary}\n${describeFailures(outcome.failures)}`);
    },
    timeoutFor(TRIALS, 20_000),
  );
});
