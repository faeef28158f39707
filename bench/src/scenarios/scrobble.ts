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
  p95_record_lag_ms: number;
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

async function newAccount(client: HttpClient, gatewayUrl: string, index: number): Promise<string> {
  const username = `scrobbler${index}x${Date.now().toString(36)}`;
  const password = 'bench scrobbler password';
  await client.expect(`${gatewayUrl}/api/v1/auth/register`, 201, { method: 'POST', json: { username, email: `${username}@bench.example`, password } });
  return (await client.json<{ access_token: string }>(`${gatewayUrl}/api/v1/auth/login`, 200, { method: 'POST', json: { username, password } })).access_token;
}

/** A hook's own limit (docs/api.md, scrobbling). */
const HOOK_EVENTS_PER_MINUTE = 600;
/**
 * The accounts the events come from. A server's 50 events a second come from many households (one person's
 * plays are a few an hour); one account's list writes are numbered one after another in its change feed,
 * so a single account would measure one list's write rate rather than the service's.
 */
const ACCOUNTS = 5;
/** How often each account's list is read for the plays recorded so far (the lag's resolution). */
const POLL_MS = 500;

interface Scrobbler {
  auth: Record<string, string>;
  receivers: string[];
  /** The indexes of the events sent for this account, in sending order. */
  events: number[];
}

/**
 * Webhooks at a steady rate through the gateway (an open loop: one event every 1000/rate ms whatever the
 * answers), each a generic `played` event of a different catalog movie, matched by its IMDb id, the accounts
 * taking turns. Measures the 202 latency, then how long after its 202 each play showed on its owner's list
 * (each list's total, polled), and finally that no movie got two plays.
 */
export async function measureScrobble(setup: ScrobbleSetup, log: (text: string) => void): Promise<ScrobbleResults> {
  const { gatewayUrl, rate, seconds } = setup;
  const events = Math.min(rate * seconds, setup.imdbIds.length);
  const client = new HttpClient(64);
  try {
    // Each hook takes at most HOOK_EVENTS_PER_MINUTE (then 429): enough hooks per account carry its share.
    const hooksPerAccount = Math.max(1, Math.ceil((rate * 60) / ACCOUNTS / (HOOK_EVENTS_PER_MINUTE * 0.9)));
    const scrobblers: Scrobbler[] = [];
    for (let account = 0; account < ACCOUNTS; account++) {
      const auth = { authorization: `Bearer ${await newAccount(client, gatewayUrl, account)}` };
      const receivers: string[] = [];
      for (let index = 0; index < hooksPerAccount; index++) {
        const hook = await client.json<{ url: string }>(`${gatewayUrl}/api/v1/scrobble/hooks`, 201, { method: 'POST', headers: auth, json: { server: 'generic', name: `bench ${index}` } });
        receivers.push(`${gatewayUrl}${new URL(hook.url).pathname}`);
      }
      scrobblers.push({ auth, receivers, events: [] });
    }
    const answers: Array<Promise<HttpAnswer>> = [];
    const acceptedAt: number[] = [];
    // Each play puts a new movie on its owner's list: a list's total counts its plays recorded so far. The
    // lists are polled from the first event on (every POLL_MS), so a play's lag is measured as it happens.
    const lags: number[] = [];
    const recordedOf = scrobblers.map(() => 0);
    const recordedSoFar = () => recordedOf.reduce((sum, count) => sum + count, 0);
    let sending = true;
    const poll = async (deadline: () => number) => {
      while ((sending || recordedSoFar() < events) && performance.now() < deadline()) {
        await Promise.all(
          scrobblers.map(async (scrobbler, account) => {
            const sent = scrobbler.events.length;
            if (recordedOf[account]! >= sent) return;
            const page = await client.json<{ total: number }>(`${gatewayUrl}/api/v1/movies/list?limit=1`, 200, { headers: scrobbler.auth });
            const now = performance.now();
            const total = Math.min(page.total, sent);
            // A play recorded before its 202 arrived counts as no lag.
            for (let position = recordedOf[account]!; position < total; position++) lags.push(Math.max(0, now - (acceptedAt[scrobbler.events[position]!] ?? now)));
            recordedOf[account] = Math.max(recordedOf[account]!, total);
          }),
        );
        await sleep(POLL_MS);
      }
    };
    let sentAt = Infinity;
    const polled = poll(() => sentAt + 60_000);
    const started = performance.now();
    for (let index = 0; index < events; index++) {
      const due = started + (index * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const scrobbler = scrobblers[index % ACCOUNTS] as Scrobbler;
      scrobbler.events.push(index);
      const receiver = scrobbler.receivers[Math.floor(index / ACCOUNTS) % scrobbler.receivers.length] as string;
      const answer = client.send(receiver, { method: 'POST', json: { event: 'played', type: 'movie', title: `bench ${index}`, external_ids: { imdb: setup.imdbIds[index] } } });
      answers.push(answer.then((settled) => ((acceptedAt[index] = performance.now()), settled)));
    }
    const settled = await Promise.all(answers);
    sentAt = performance.now();
    sending = false;
    await polled;
    const latencies = settled.map((answer) => answer.ms);
    const refused = settled.filter((answer) => answer.status !== 202).length;
    const refusedBy = settled.reduce<Record<string, number>>((counts, answer) => {
      if (answer.status !== 202) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
      return counts;
    }, {});
    const recorded = recordedSoFar();
    const ownerOf = (index: number) => scrobblers[index % ACCOUNTS] as Scrobbler;
    let twice = 0;
    for (let from = 0; from < events; from += 32) {
      const counts = await Promise.all(
        setup.itemIds.slice(from, Math.min(events, from + 32)).map(async (id, offset) => {
          // 404: the movie is not on the list, its play never recorded (counted in `recorded` already).
          const answer = await client.send(`${gatewayUrl}/api/v1/movies/list/${id}/plays`, { headers: ownerOf(from + offset).auth });
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
      p95_record_lag_ms: round(lags.length ? percentile(lags, 95) : 0, 0),
      recorded,
      recorded_twice: twice,
    };
    log(`    ${events} events at ${rate}/s: 202 p50 ${result.p50_ms} ms, p95 ${result.p95_ms} ms, p99 ${result.p99_ms} ms; ${recorded} recorded, within ${result.p95_record_lag_ms} ms of their 202 at p95 and ${result.max_record_lag_ms} ms at most; ${twice} recorded twice; ${refused} refused ${JSON.stringify(refusedBy)}, from ${ACCOUNTS} accounts with ${hooksPerAccount} hook(s) each`);
    return result;
  } finally {
    client.close();
  }
}
