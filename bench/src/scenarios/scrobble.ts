import { HttpClient, type HttpAnswer } from '../load/http-client';
import { percentile, round } from '../stats';

export interface ScrobbleResults {
  events: number;
  rate_per_s: number;
  seconds: number;
  /** Answers other than 202 (each one is a failure). */
  refused: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  /** The longest time from an event's 202 until its play showed on the list. */
  max_record_lag_ms: number;
  recorded: number;
  /** Movies with more than one play after the run (each event names a different movie). */
  recorded_twice: number;
}

interface ScrobbleSetup {
  gatewayUrl: string;
  /** IMDb ids of movies in the catalog, one per event (the 6-hour rule makes a repeated movie a duplicate). */
  imdbIds: readonly string[];
  itemIds: readonly string[];
  rate: number;
  seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newAccount(client: HttpClient, gatewayUrl: string): Promise<string> {
  const username = `scrobbler${Date.now().toString(36)}`;
  const password = 'bench scrobbler password';
  await client.expect(`${gatewayUrl}/api/v1/auth/register`, 201, { method: 'POST', json: { username, email: `${username}@bench.example`, password } });
  return (await client.json<{ access_token: string }>(`${gatewayUrl}/api/v1/auth/login`, 200, { method: 'POST', json: { username, password } })).access_token;
}

/** A hook's own limit (docs/api.md, scrobbling). */
const HOOK_EVENTS_PER_MINUTE = 600;

/**
 * Webhooks at a steady rate through the gateway (an open loop: one event every 1000/rate ms whatever the
 * answers), each a generic `played` event of a different catalog movie, matched by its IMDb id. Measures
 * the 202 latency, then how long after its 202 each play showed on the list (the list's total, polled), and
 * finally that no movie got two plays.
 */
export async function measureScrobble(setup: ScrobbleSetup, log: (text: string) => void): Promise<ScrobbleResults> {
  const { gatewayUrl, rate, seconds } = setup;
  const events = Math.min(rate * seconds, setup.imdbIds.length);
  const client = new HttpClient(64);
  try {
    const jwt = await newAccount(client, gatewayUrl);
    const auth = { authorization: `Bearer ${jwt}` };
    // Each hook takes at most HOOK_EVENTS_PER_MINUTE (then 429): enough hooks of one account carry the rate.
    const hookCount = Math.max(1, Math.ceil((rate * 60) / (HOOK_EVENTS_PER_MINUTE * 0.9)));
    const receivers: string[] = [];
    for (let index = 0; index < hookCount; index++) {
      const hook = await client.json<{ url: string }>(`${gatewayUrl}/api/v1/scrobble/hooks`, 201, { method: 'POST', headers: auth, json: { server: 'generic', name: `bench ${index}` } });
      receivers.push(`${gatewayUrl}${new URL(hook.url).pathname}`);
    }
    const answers: Array<Promise<HttpAnswer>> = [];
    const acceptedAt: number[] = [];
    const started = performance.now();
    for (let index = 0; index < events; index++) {
      const due = started + (index * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const answer = client.send(receivers[index % receivers.length] as string, { method: 'POST', json: { event: 'played', type: 'movie', title: `bench ${index}`, external_ids: { imdb: setup.imdbIds[index] } } });
      answers.push(answer.then((settled) => ((acceptedAt[index] = performance.now()), settled)));
    }
    const settled = await Promise.all(answers);
    const latencies = settled.map((answer) => answer.ms);
    const refused = settled.filter((answer) => answer.status !== 202).length;
    const refusedBy = settled.reduce<Record<string, number>>((counts, answer) => {
      if (answer.status !== 202) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
      return counts;
    }, {});

    // Each play puts a new movie on the list: the list's total counts the plays recorded so far.
    const lags: number[] = [];
    let recorded = 0;
    const deadline = performance.now() + 60_000;
    while (recorded < events && performance.now() < deadline) {
      const page = await client.json<{ total: number }>(`${gatewayUrl}/api/v1/movies/list?limit=1`, 200, { headers: auth });
      const now = performance.now();
      for (let index = recorded; index < Math.min(page.total, events); index++) lags.push(now - (acceptedAt[index] ?? now));
      recorded = Math.max(recorded, Math.min(page.total, events));
      if (recorded < events) await sleep(100);
    }
    let twice = 0;
    for (let from = 0; from < events; from += 32) {
      const counts = await Promise.all(
        setup.itemIds.slice(from, Math.min(events, from + 32)).map(async (id) => {
          // 404: the movie is not on the list, its play never recorded (counted in `recorded` already).
          const answer = await client.send(`${gatewayUrl}/api/v1/movies/list/${id}/plays`, { headers: auth });
          return answer.status === 200 ? (JSON.parse(answer.body) as { data: unknown[] }).data.length : 0;
        }),
      );
      twice += counts.filter((count) => count > 1).length;
    }
    const result: ScrobbleResults = {
      events,
      rate_per_s: rate,
      seconds,
      refused,
      p50_ms: round(percentile(latencies, 50), 1),
      p95_ms: round(percentile(latencies, 95), 1),
      p99_ms: round(percentile(latencies, 99), 1),
      max_ms: round(Math.max(...latencies), 1),
      max_record_lag_ms: round(Math.max(0, ...lags), 0),
      recorded,
      recorded_twice: twice,
    };
    log(`    ${events} events at ${rate}/s: 202 p50 ${result.p50_ms} ms, p95 ${result.p95_ms} ms, p99 ${result.p99_ms} ms; ${recorded} recorded, the last within ${result.max_record_lag_ms} ms of its 202; ${twice} recorded twice; ${refused} refused ${JSON.stringify(refusedBy)}, over ${receivers.length} hooks`);
    return result;
  } finally {
    client.close();
  }
}
