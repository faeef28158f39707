import type { ImportPlay } from '@mt/importers';
import type { Id } from '../../domain/ids';
import { playsToAdd } from '../../domain/imported-plays';
import { utcToday } from '../../domain/list-dates';
import type { RowError } from '../../domain/list-import';
import { rewatched, type PlayedEntryState } from '../../domain/play-state';
import type { ExportPlaysReader } from '../../domain/ports/list-plays-reader.port';
import type { ListStore } from '../../domain/ports/list-store.port';
import type { ChangeStamp } from '../list/list-writes';
import type { PlayRecorder } from '../plays/play-recorder';
import type { PlannedPlay, PlayedWork } from '../plays/play-targets';

/** One imported row's plays, for the item it was matched to. */
export interface RowPlays {
  row: number;
  itemId: Id;
  plays: readonly ImportPlay[];
  /** The entry as the row wrote it, to be kept after its plays (null: the plays decide the status). */
  keep: PlayedEntryState | null;
  /** The catalog entry when this batch creates it (not readable outside the batch's transaction yet). */
  created: { year: number | null } | null;
}

export interface ImportPlaysDeps {
  recorder: PlayRecorder;
  /** The category's works are played episode by episode. */
  episodic: boolean;
  lists: ListStore;
  plays: ExportPlaysReader;
}

const episodeName = (play: ImportPlay) => `S${play.season}E${play.number}`;

/**
 * Writes the plays of an import batch inside the batch's own list write (one transaction with its entries and
 * its checkpoint, so a resumed job never writes them twice): only the plays the list does not have yet
 * (`playsToAdd`), each cycle of the file opened on the entry the way a rewatch opens it, every play with its own
 * source where the file has one (our exports) and `import:<source>` otherwise. Then a row whose file states the
 * entry gets it back as the file states it, since plays move status and dates (a restore is exact).
 */
export class ImportPlays {
  constructor(private readonly deps: ImportPlaysDeps) {}

  /** Warnings for plays that could not be written (an episode the catalog does not know); the plays added by row. */
  async record(stamp: ChangeStamp, rows: readonly RowPlays[], source: string): Promise<{ warnings: RowError[]; addedByRow: Map<number, number> }> {
    const warnings: RowError[] = [];
    const addedByRow = new Map<number, number>();
    const listed = await this.deps.plays.ofItems(stamp.userId, rows.map((row) => row.itemId), stamp.session);
    for (const row of rows) {
      if (row.plays.length === 0) continue;
      // A work the batch creates has no episodes yet.
      const work = row.created ? { year: row.created.year, episodic: this.deps.episodic, episodes: [] } : await this.deps.recorder.work(row.itemId);
      if (!work) continue; // removed since it was matched: the entry write already failed the batch
      const key = row.itemId.toHexString();
      const fresh = playsToAdd(row.plays, listed.get(key) ?? []);
      // Two rows of one file may match the same work: the second sees the first's plays.
      listed.set(key, [...(listed.get(key) ?? []), ...fresh.map((play) => ({ ...play, cycle: play.cycle ?? 1, source: play.source ?? source }))]);
      const { planned, unknown } = this.plan(fresh, work);
      if (unknown.size) warnings.push({ row: row.row, message: `not episodes of this show in the catalog, their plays were not imported: ${[...unknown].slice(0, 10).join(', ')}${unknown.size > 10 ? ', …' : ''}` });
      for (const [cycle, plays] of byCycle(planned)) {
        await this.openCycle(stamp, row.itemId, work, cycle);
        for (const [playSource, group] of bySource(plays, source))
        {
          const recorded = await this.deps.recorder.record(stamp, { itemId: row.itemId, planned: group.map(({ planned: play }) => play), source: playSource }, work);
          addedByRow.set(row.row, (addedByRow.get(row.row) ?? 0) + recorded.added.length);
        }
      }
      if (row.keep && planned.length) await this.keepEntry(stamp, row.itemId, work, row.keep);
    }
    return { warnings, addedByRow };
  }

  private plan(plays: readonly ImportPlay[], work: PlayedWork): { planned: Array<{ play: ImportPlay; planned: PlannedPlay }>; unknown: Set<string> } {
    const unknown = new Set<string>();
    const planned: Array<{ play: ImportPlay; planned: PlannedPlay }> = [];
    const episodes = new Map(work.episodes.map((episode) => [`${episode.season}x${episode.number}`, episode]));
    for (const play of plays) {
      const episode = play.season === null ? null : episodes.get(`${play.season}x${play.number}`);
      if (play.season !== null && (!work.episodic || !episode)) {
        unknown.add(episodeName(play));
        continue;
      }
      planned.push({
        play,
        planned: { episodeId: episode?.id ?? null, season: play.season, number: play.number, watchedAt: play.watched_at === null ? null : new Date(play.watched_at), precision: play.precision },
      });
    }
    return { planned, unknown };
  }

  /** A later cycle of the file starts on the entry as a rewatch starts it (never going back to an earlier one). */
  private async openCycle(stamp: ChangeStamp, itemId: Id, work: PlayedWork, cycle: number | undefined): Promise<void> {
    if (cycle === undefined) return;
    const entry = await this.deps.lists.find(stamp.userId, itemId, stamp.session);
    if (!entry || (entry.cycle ?? 1) >= cycle) return;
    await this.deps.recorder.derive(stamp, entry, work, (state) => rewatched(state, utcToday(stamp.at)), { cycle, repeat_count: (entry.repeat_count ?? 0) + 1 });
  }

  private async keepEntry(stamp: ChangeStamp, itemId: Id, work: PlayedWork, keep: PlayedEntryState): Promise<void> {
    const entry = await this.deps.lists.find(stamp.userId, itemId, stamp.session);
    if (entry) await this.deps.recorder.derive(stamp, entry, work, () => keep);
  }
}

function byCycle<T extends { play: ImportPlay }>(plays: readonly T[]): Array<[number | undefined, T[]]> {
  const groups = new Map<number | undefined, T[]>();
  for (const play of plays) groups.set(play.play.cycle, [...(groups.get(play.play.cycle) ?? []), play]);
  // Plays of no known cycle go to the entry's current one, after the numbered cycles were opened.
  return [...groups.entries()].sort(([a], [b]) => (a ?? Infinity) - (b ?? Infinity));
}

function bySource<T extends { play: ImportPlay }>(plays: readonly T[], source: string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const play of plays) {
    const key = play.play.source ?? source;
    groups.set(key, [...(groups.get(key) ?? []), play]);
  }
  return groups;
}
