import { failedRow, type ImportRow } from '../model';

/** A parsed row that may repeat a work seen earlier in the same file (a rewatch, a second play). */
export interface RepeatableRow {
  readonly key: string;
  /** When this row's state was recorded, `YYYY-MM-DD` (null sorts before every date). */
  readonly date: string | null;
  readonly row: ImportRow;
}

export interface CollapseOptions {
  /** Plays one work may gather from its rows. */
  readonly maxRowPlays: number;
  /** Lets the winner take what only an earlier row had (a rating given at the first viewing). */
  readonly merge?: (winner: ImportRow, earlier: ImportRow) => ImportRow;
  /** The work's row once all its rows are in (what depends on all of its plays). */
  readonly finish?: (row: ImportRow) => ImportRow;
}

/** The winner's row with the plays of both rows, in file order. */
function withPlaysOf(winner: ImportRow, first: ImportRow, second: ImportRow): ImportRow {
  if (!winner.ok || !first.ok || !second.ok) return winner;
  return { ...winner, plays: [...first.plays, ...second.plays] };
}

/**
 * Collapses repeated works to one row each, the latest state winning: the row with the latest date, and of
 * rows with the same date the one further down the file. Every row's plays are kept (each row of a diary or a
 * history is a viewing), up to `maxRowPlays` per work, over which the work's row fails. Rows without a key
 * (failed rows, rows that cannot repeat) pass through at once; the others come out when the file ends, in the
 * order each work first appeared. Holds one row per distinct work until then: bounded by the row limit.
 */
export async function* latestPerWork(
  rows: AsyncIterable<RepeatableRow | ImportRow>,
  options: CollapseOptions,
): AsyncGenerator<ImportRow> {
  const merge = options.merge ?? ((winner: ImportRow) => winner);
  const works = new Map<string, RepeatableRow>();
  for await (const candidate of rows) {
    if (!('key' in candidate)) {
      yield candidate;
      continue;
    }
    const held = works.get(candidate.key);
    if (!held) {
      works.set(candidate.key, candidate);
      continue;
    }
    if (!held.row.ok) continue; // the work already has too many plays
    const later = (candidate.date ?? '') >= (held.date ?? '');
    const [winner, earlier] = later ? [candidate, held] : [held, candidate];
    const merged = withPlaysOf(merge(winner.row, earlier.row), held.row, candidate.row);
    const tooMany = merged.ok && merged.plays.length > options.maxRowPlays;
    works.set(candidate.key, {
      ...winner,
      row: tooMany
        ? failedRow(winner.row.row, `the work has more than ${options.maxRowPlays} plays in this file`)
        : merged,
    });
  }
  for (const work of works.values())
    yield options.finish && work.row.ok ? options.finish(work.row) : work.row;
}
