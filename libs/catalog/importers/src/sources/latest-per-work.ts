import type { ImportRow } from '../model';

/** A parsed row that may repeat a work seen earlier in the same file (a rewatch, a second play). */
export interface RepeatableRow {
  readonly key: string;
  /** When this row's state was recorded, `YYYY-MM-DD` (null sorts before every date). */
  readonly date: string | null;
  readonly row: ImportRow;
}

/**
 * Collapses repeated works to one row each, the latest state winning: the row with the latest date, and of
 * rows with the same date the one further down the file. `merge` lets the winner take what only an earlier
 * row had (a rating given at the first viewing). Rows without a key (failed rows, rows that cannot repeat)
 * pass through at once; the others come out when the file ends, in the order each work first appeared.
 * Holds one row per distinct work until then: bounded by the row limit.
 */
export async function* latestPerWork(
  rows: AsyncIterable<RepeatableRow | ImportRow>,
  merge: (winner: ImportRow, earlier: ImportRow) => ImportRow = (winner) => winner,
): AsyncGenerator<ImportRow> {
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
    const later = (candidate.date ?? '') >= (held.date ?? '');
    const [winner, earlier] = later ? [candidate, held] : [held, candidate];
    works.set(candidate.key, { ...winner, row: merge(winner.row, earlier.row) });
  }
  for (const work of works.values()) yield work.row;
}
