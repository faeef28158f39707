import { moviePayload, sendEvent } from '../test/senders';
import { call, eventually, newUser, startScrobbleStack, type ScrobbleStack } from '../test/scrobble-stack';

jest.setTimeout(240_000);

const EVENTS = 50;

let env: ScrobbleStack;

beforeAll(async () => {
  // One event at a time: most of them are still queued when the process is killed.
  env = await startScrobbleStack({ scrobbleEnv: { SCROBBLE_CONCURRENCY: '1' } });
});

afterAll(async () => {
  await env?.stop();
});

it('SIGKILLed right after answering 202 for 50 events, records exactly 50 plays once restarted', async () => {
  const gw = env.gatewayUrl;
  const token = await newUser(gw, 'crash');
  const movies: string[] = [];
  for (let index = 0; index < EVENTS; index++) {
    const created = await call<{ id: string }>(gw, 'POST', '/api/v1/movies', { token, body: { title: `Crash Test ${index}`, year: 2000, external_ids: { imdb: `tt${String(9_100_000 + index).padStart(7, '0')}` } } });
    expect(created.status).toBe(201);
    movies.push(created.body.id);
  }
  const hook = await call<{ url: string }>(gw, 'POST', '/api/v1/scrobble/hooks', { token, body: { server: 'generic', name: 'crash' } });
  const answers = await Promise.all(
    movies.map((_, index) => sendEvent(gw, hook.body.url, 'generic', moviePayload('generic', { kind: 'played', title: `Crash Test ${index}`, year: 2000, ids: { imdb: `tt${String(9_100_000 + index).padStart(7, '0')}` } }))),
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array(EVENTS).fill(202));

  const scrobble = env.stack.process('scrobble-service');
  scrobble.kill('SIGKILL');
  await scrobble.exited;
  await scrobble.restart({ readyTimeoutMs: 60_000 });

  const countPlays = async () => {
    const counts = await Promise.all(movies.map(async (id) => ((await call<{ data: unknown[] }>(gw, 'GET', `/api/v1/movies/list/${id}/plays`, { token })).body.data ?? []).length));
    return counts;
  };
  await eventually(async () => ((await countPlays()).every((count) => count >= 1) ? true : undefined), 60_000, 'a play of every event');
  // Stalled jobs are run again after their lock lapses: give a second run every chance to double a play.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  expect(await countPlays()).toEqual(Array(EVENTS).fill(1));
});
