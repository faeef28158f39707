/**
 * How plays move a list entry (docs/api.md, "Episodes, plays and rewatches"): pure rules, applied in the
 * transaction that writes the plays. A manual status change still wins: these run only when plays change.
 */
import { isAired, isRegularSeason } from './episodes';
import { episodeKey } from './plays';
import type { ListStatus } from './list-entry';

/** What of an entry plays move. */
export interface PlayedEntryState {
  status: ListStatus;
  progress: number | null;
  started_at: string | null;
  finished_at: string | null;
}

/** An episode as the rules see it: its place and air date. */
export interface EpisodeSlot {
  season: number;
  number: number;
  airDate: string | null;
}

/** What the rules know about the entry's work after the write: its episodes (episodic works) and the plays of the current cycle. */
export interface PlayFacts {
  episodic: boolean;
  /** Every episode of the show, by season and number (empty for other works). */
  episodes: readonly EpisodeSlot[];
  /** `episodeKey`s of the regular episodes played in the current cycle. */
  playedInCycle: ReadonlySet<string>;
  today: string;
}

/** The regular episodes played in the current cycle: a show's progress. */
export const regularPlayed = (plays: ReadonlyArray<{ season: number | null; number: number | null }>): Set<string> =>
  new Set(plays.filter((play) => play.season !== null && isRegularSeason(play.season)).map((play) => episodeKey(play.season, play.number)));

/** Aired regular episodes (as of `today`): what completion and `aired` count. */
export const airedEpisodes = (episodes: readonly EpisodeSlot[], today: string): EpisodeSlot[] => episodes.filter((episode) => isAired(episode, today));

/** Every aired regular episode has a play in the current cycle (a show with none aired is never complete). */
export function isComplete(facts: PlayFacts): boolean {
  const aired = airedEpisodes(facts.episodes, facts.today);
  return aired.length > 0 && aired.every((episode) => facts.playedInCycle.has(episodeKey(episode.season, episode.number)));
}

/** The first regular episode (by season and number) without a play in the current cycle, aired or not. */
export function nextEpisodeSlot(episodes: readonly EpisodeSlot[], played: ReadonlySet<string>): EpisodeSlot | null {
  return episodes.find((episode) => isRegularSeason(episode.season) && !played.has(episodeKey(episode.season, episode.number))) ?? null;
}

function keepDatesInOrder(state: PlayedEntryState): PlayedEntryState {
  // A later start moves back to the finish the plays gave.
  if (state.started_at !== null && state.finished_at !== null && state.started_at > state.finished_at) return { ...state, started_at: state.finished_at };
  return state;
}

/**
 * After plays were added (`dates`: their calendar dates, oldest first): an empty start takes the first, a
 * planned entry starts; a work without episodes is completed (finish: the latest play, never moved back);
 * a show is completed once every aired regular episode is played in the cycle, and its progress counts them.
 */
export function afterPlaysAdded(entry: PlayedEntryState, dates: readonly string[], facts: PlayFacts): PlayedEntryState {
  const first = dates[0] ?? facts.today;
  const last = dates.at(-1) ?? facts.today;
  const state: PlayedEntryState = { ...entry, started_at: entry.started_at ?? first, status: entry.status === 'plan_to_watch' ? 'watching' : entry.status };
  if (!facts.episodic) {
    const keepFinish = entry.status === 'completed' && entry.finished_at !== null && entry.finished_at > last;
    return keepDatesInOrder({ ...state, status: 'completed', finished_at: keepFinish ? entry.finished_at : last });
  }
  const progressed = { ...state, progress: facts.playedInCycle.size };
  if (state.status !== 'completed' && isComplete(facts)) return keepDatesInOrder({ ...progressed, status: 'completed', finished_at: last });
  return progressed;
}

/** After a play was removed: a show's progress is counted again, and one no longer complete goes back to watching. */
export function afterPlayRemoved(entry: PlayedEntryState, facts: PlayFacts): PlayedEntryState {
  if (!facts.episodic) return entry;
  const state = { ...entry, progress: facts.playedInCycle.size };
  return state.status === 'completed' && !isComplete(facts) ? { ...state, status: 'watching' } : state;
}

/** A rewatch (from completed or dropped): a new cycle, watching from today, nothing played in it yet. */
export function rewatched(entry: PlayedEntryState, today: string): PlayedEntryState {
  return { ...entry, status: 'watching', progress: 0, started_at: today, finished_at: null };
}

export const REWATCH_FROM: readonly ListStatus[] = ['completed', 'dropped'];
