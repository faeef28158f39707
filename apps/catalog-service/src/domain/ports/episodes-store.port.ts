import type { Session } from './atomic.port';
import type { Id } from '../ids';
import type { Episode, EpisodeInput } from '../episodes';

/** A show's episodes (data/episodes.repository.ts). */
export interface EpisodesStore {
  /** The show's episodes (of one season when given), by season and number, `skip`/`limit` applied. */
  page(showId: Id, season: number | undefined, window: { skip: number; limit: number }): Promise<Episode[]>;
  count(showId: Id, season: number | undefined): Promise<number>;
  /** Every episode of the show, by season and number (small: a show has at most a few thousand). */
  allOf(showId: Id, session?: Session): Promise<Episode[]>;
  /** The episodes with these ids (any show). */
  byIds(ids: readonly Id[], session?: Session): Promise<Episode[]>;
  /** The episodes at these places (show, season, number), in one read; places without one are left out. */
  atPlaces(places: ReadonlyArray<{ showId: Id; season: number; number: number }>): Promise<Episode[]>;
  /** The show's episode with this season and number, or null. */
  find(showId: Id, season: number, number: number, session?: Session): Promise<Episode | null>;
  /** Of each show, how many regular episodes aired by `today`. */
  airedCounts(showIds: readonly Id[], today: string): Promise<Map<string, number>>;
  /** The first episode carrying this external id (`key:value`), or null. */
  findByExternalKey(key: string): Promise<Episode | null>;
  /**
   * Makes the season exactly `episodes`: numbers that stay keep their id (their fields replaced), the others
   * are removed, new numbers get new ids. Returns the season as written.
   */
  replaceSeason(showId: Id, season: number, episodes: readonly EpisodeInput[], session: Session): Promise<Episode[]>;
  /**
   * A catalog merge: `from`'s episodes join `into`; where `into` has the same season and number, its episode
   * stays and `from`'s goes. Returns every moved-away id with the id that replaces it.
   */
  mergeShow(from: Id, into: Id, session: Session): Promise<Map<string, Id>>;
  /** The show was removed from the catalog: its episodes go with it. */
  deleteOfShow(showId: Id, session: Session): Promise<void>;
}
