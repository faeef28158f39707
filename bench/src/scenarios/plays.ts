import type { Logger } from '@mt/logging';
import mongoose from 'mongoose';
import { createCatalogModule, getCategory, newEntryDocument } from '../service-code';
import type { BenchOptions } from '../options';
import { compareLatency, type UnloadedLatencyStats } from './compare';
import { required } from '../required';
import { round } from '../stats';

/**
 * One user's shows and plays: `shows` shows of `episodesPerShow` + 1 aired episodes, each watched whole
 * `cycles` − 1 times (a rewatch after each) and then up to its last episode, which is up next.
 */
export interface PlaysUser {
  id: string;
  jwt: string;
  shows: number;
  episodesPerShow: number;
  cycles: number;
}

const playsOf = (user: PlaysUser) => user.shows * ((user.cycles - 1) * (user.episodesPerShow + 1) + user.episodesPerShow);

export interface PlaysResults {
  small: { shows: number; plays: number };
  large: { shows: number; plays: number };
  latency: Record<string, UnloadedLatencyStats>;
  /** p95 of the large user ÷ p95 of the small one (target ≤ 1.5 each). */
  growth_p95: { progress: number; up_next: number };
  /** p95 of POST a play ÷ p95 of PATCH of the entry (target ≤ 2). */
  play_vs_patch_p95: number;
}

/**
 * Seeds each user's shows through the tvshows catalog's own module (entries, then each show's season with
 * the episodes use case, then the plays with the batch use case: the same documents, feed rows and derived
 * fields as the API writes), leaving the last episode of every show unplayed so it is up next. Returns a
 * show of each user to measure on.
 */
async function seedShows(mongoUrl: string, dbName: string, users: readonly PlaysUser[], logger: Logger): Promise<string[]> {
  const connection = await mongoose.createConnection(mongoUrl, { dbName, maxPoolSize: 8, autoIndex: false, autoCreate: false }).asPromise();
  const tvshows = getCategory('tvshows');
  const module = createCatalogModule({ category: tvshows, connection, logger, cursorSecret: 'bench-seeder-only-writes-plays' });
  const firstAir = Date.UTC(2015, 0, 1);
  try {
    const measured: string[] = [];
    for (const [u, user] of users.entries()) {
      const docs = Array.from({ length: user.shows }, (_, i) => newEntryDocument(tvshows, { title: `Bench Show ${u}-${i}`, year: 2015 }, user.id, new Date()));
      await module.catalogRepository.importMany(docs);
      for (const [i, doc] of docs.entries()) {
        const id = doc._id.toHexString();
        const episodes = Array.from({ length: user.episodesPerShow + 1 }, (_, e) => ({ number: e + 1, air_date: new Date(firstAir + e * 7 * 86_400_000).toISOString().slice(0, 10), runtime_minutes: 40 }));
        await module.episodes!.replaceSeason(id, 1, episodes, { userId: null, moderator: true });
        for (let cycle = 1; cycle <= user.cycles; cycle++) {
          const last = cycle === user.cycles;
          const played = episodes.slice(0, last ? user.episodesPerShow : episodes.length).map((episode) => ({ season: 1, number: episode.number }));
          const at = new Date(Date.UTC(2023, 0, 1) + ((cycle * users.length + u) * user.shows + i) * 3_600_000).toISOString();
          await module.playBatch.record(user.id, [{ item_id: id, episodes: played, watched_at: at }], 'import:bench');
          if (!last) await module.plays.rewatch(user.id, id);
        }
      }
      measured.push(required(docs[0], 'a show')._id.toHexString());
    }
    return measured;
  } finally {
    module.stop();
    await connection.close();
  }
}

/**
 * `progress` and `up-next` of a user with many shows and plays against one with few, and POST of a play against
 * PATCH of the same entry, all measured taking turns one request at a time through the gateway.
 */
export async function measurePlays(
  gatewayUrl: string,
  stores: { mongoUrl: string; dbName: string },
  users: { small: PlaysUser; large: PlaysUser },
  options: BenchOptions,
  logger: Logger,
  log: (text: string) => void,
): Promise<PlaysResults> {
  const started = performance.now();
  const [smallShow, largeShow] = await seedShows(stores.mongoUrl, stores.dbName, [users.small, users.large], logger);
  log(`    seeded ${users.small.shows} + ${users.large.shows} shows and their plays in ${round((performance.now() - started) / 1000, 1)} s`);
  const as = (user: PlaysUser) => ({ authorization: `Bearer ${user.jwt}` });
  const base = `${gatewayUrl}/api/v1/tvshows/list`;
  const latency = await compareLatency(
    [
      { name: 'progress_small', url: `${base}/${smallShow}/progress`, request: { headers: as(users.small) } },
      { name: 'progress_large', url: `${base}/${largeShow}/progress`, request: { headers: as(users.large) } },
      { name: 'up_next_small', url: `${base}/up-next?limit=20`, request: { headers: as(users.small) } },
      { name: 'up_next_large', url: `${base}/up-next?limit=20`, request: { headers: as(users.large) } },
      // A rewatch of the last aired episode each time ("now": a new play), and a PATCH of the same entry.
      { name: 'post_play', url: `${base}/${largeShow}/plays`, request: { method: 'POST', headers: as(users.large), json: { episodes: [{ season: 1, number: 1 }] } }, expectStatus: 201 },
      { name: 'patch_entry', url: `${base}/${largeShow}`, request: { method: 'PATCH', headers: as(users.large), json: { notes: 'bench' } } },
    ],
    { repeats: options.repeats, rounds: options.latencyRounds },
  );
  const p95 = (name: string) => required(latency[name], name).p95;
  const results: PlaysResults = {
    small: { shows: users.small.shows, plays: playsOf(users.small) },
    large: { shows: users.large.shows, plays: playsOf(users.large) },
    latency,
    growth_p95: { progress: round(p95('progress_large') / p95('progress_small'), 2), up_next: round(p95('up_next_large') / p95('up_next_small'), 2) },
    play_vs_patch_p95: round(p95('post_play') / p95('patch_entry'), 2),
  };
  for (const [name, stats] of Object.entries(latency)) log(`    ${name.padEnd(15)} p50 ${stats.p50} ms, p95 ${stats.p95} ms`);
  log(`    growth (p95) progress ${results.growth_p95.progress}×, up-next ${results.growth_p95.up_next}×; POST play ÷ PATCH ${results.play_vs_patch_p95}×`);
  return results;
}
