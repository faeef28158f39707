import { createCatalogEntry, endpointsAccepting, loginToken, registerUser } from './support/accounts';
import { CATEGORIES, startRaceStack, type Category, type RaceStack } from './support/race-stack';
import { after, describeFailures, runTrials, timeoutFor, trialCount } from './support/trials';

// Issue 14, finding 4: list additions racing DELETE /me must not leave entries of the deleted user behind.
const TRIALS = trialCount();
/** List additions every 2 ms, across the three categories, with the deletion sent among them. */
const ADDS_PER_TRIAL = 24;
const ADD_INTERVAL_MS = 2;
const DELETE_OFFSET_MS = 12;

describe('list additions racing DELETE /me', () => {
  let race: RaceStack;
  const items = {} as Record<Category, string[]>;

  beforeAll(async () => {
    race = await startRaceStack('list-delete');
    const owner = await registerUser(race.http);
    const jwt = await loginToken(race.http, owner);
    for (const category of CATEGORIES) {
      items[category] = [];
      for (let n = 0; n < ADDS_PER_TRIAL / CATEGORIES.length; n++) {
        items[category].push(await createCatalogEntry(race.http, jwt, category, `Race item ${n}`));
      }
    }
  });
  afterAll(() => race?.stop());

  it(
    'leaves no list entry of the deleted user in any category, and no credential of theirs working',
    async () => {
      const outcome = await runTrials('finding 4 (list additions racing DELETE /me)', TRIALS, async () => {
        const { http } = race;
        const user = await registerUser(http);
        const jwt = await loginToken(http, user);

        const adds = Array.from({ length: ADDS_PER_TRIAL }, (_, n) => {
          const category = CATEGORIES[n % CATEGORIES.length]!;
          const itemId = items[category][Math.floor(n / CATEGORIES.length)]!;
          return after(n * ADD_INTERVAL_MS, () =>
            http.post(`/api/v1/${category}/list`, { item_id: itemId }, { token: jwt }),
          );
        });
        const deletion = after(DELETE_OFFSET_MS, () => http.delete('/api/v1/auth/me', { token: jwt }));
        const [deleted, ...answers] = await Promise.all([deletion, ...adds]);
        if (deleted.status !== 200) return [`DELETE /me answered ${deleted.status}`];

        const problems: string[] = [];
        const odd = answers.filter((answer) => ![201, 401].includes(answer.status));
        if (odd.length)
          problems.push(
            `additions answered ${odd.map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`).join(', ')}`,
          );
        const accepted = await endpointsAccepting(http, jwt);
        if (accepted.length) problems.push(`the deleted user's JWT still works: ${accepted.join(', ')}`);
        await race.waitForEventsConsumed();
        for (const category of CATEGORIES) {
          const left = await race.countListEntries(category, user.id);
          if (left) problems.push(`${left} ${category} list entries left after the deletion was consumed`);
        }
        return problems;
      });
      if (outcome.failures.length)
        throw new Error(`${outcome.summary}\n${describeFailures(outcome.failures)}`);
    },
    timeoutFor(TRIALS, 20_000),
  );
});
