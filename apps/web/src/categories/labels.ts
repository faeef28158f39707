import type { Category, ListStatus } from '@mt/api-client';
import { DEFAULT_STATUS_LABELS, LIST_STATUSES, PROGRESS_LENGTH_FIELDS, type ProgressUnit } from '@mt/domain';

/** Where each status comes in the order a person moves through them (a new status must be placed here). */
const JOURNEY_ORDER: Readonly<Record<ListStatus, number>> = { watching: 0, plan_to_watch: 1, completed: 2, on_hold: 3, dropped: 4 };

/** The five stored statuses (@mt/domain), in the order a person moves through them. */
export const STATUSES: readonly ListStatus[] = [...LIST_STATUSES].sort((a, b) => JOURNEY_ORDER[a] - JOURNEY_ORDER[b]);

/** The category record with the labelling fields another issue adds; absent until then. */
export type LabelledCategory = Category & {
  status_labels?: Partial<Record<ListStatus, string>> | null;
  progress_unit?: string | null;
};

export function statusLabel(category: Category | undefined, status: ListStatus): string {
  const own = (category as LabelledCategory | undefined)?.status_labels?.[status];
  return typeof own === 'string' && own.trim() ? own : DEFAULT_STATUS_LABELS[status];
}

/** "minutes", "episodes", "pages" — or undefined when the category does not say. */
export function progressUnit(category: Category | undefined): string | undefined {
  const unit = (category as LabelledCategory | undefined)?.progress_unit;
  return typeof unit === 'string' && unit.trim() ? unit : undefined;
}

/** The progress field's label: "Progress (episodes)", or just "Progress". */
export const progressLabel = (category: Category | undefined) => {
  const unit = progressUnit(category);
  return unit ? `Progress (${unit})` : 'Progress';
};

/** "movies", "TV shows", "books": the display name inside a sentence (an acronym keeps its capitals). */
export function categoryWords(category: Category | undefined): string {
  const name = category?.display_name?.trim();
  if (!name) return 'entries';
  return name
    .split(/\s+/)
    .map((word) => (word === word.toUpperCase() ? word : word.toLowerCase()))
    .join(' ');
}

/** "movie", "TV show", "book": a singular for buttons, from the display name; generic without one. */
export function entryNoun(category: Category | undefined): string {
  if (!category?.display_name?.trim()) return 'entry';
  return categoryWords(category).replace(/s$/i, '');
}

/** "3 / 62 episodes", "120 pages", or undefined when there is no progress to tell. */
export function progressText(category: Category | undefined, progress: number | null, total?: number | null): string | undefined {
  const unit = progressUnit(category) ?? '';
  if (progress === null && !total) return undefined;
  const done = progress ?? 0;
  return `${total ? `${done} / ${total}` : done} ${unit}`.trim();
}

/** The verbs of a play in the category: books are read, everything else is watched. */
export function playWords(category: Category | undefined): { past: string; again: string } {
  return progressUnit(category) === 'pages' ? { past: 'read', again: 'Read again' } : { past: 'watched', again: 'Watch again' };
}

/**
 * A work's length in the category's progress unit (a show's episodes, a book's pages), when the record at
 * hand carries it: a catalog entry by its own field, a summary by `progress_total`.
 */
export function progressTotalOf(category: Category | undefined, item: object): number | null {
  const record = item as Record<string, unknown>;
  if (typeof record['progress_total'] === 'number') return record['progress_total'];
  const unit = progressUnit(category) as ProgressUnit | undefined;
  const length = unit && PROGRESS_LENGTH_FIELDS[unit] ? record[PROGRESS_LENGTH_FIELDS[unit]] : undefined;
  return typeof length === 'number' ? length : null;
}

/** What a work's picture is called in the category: books have covers, everything else posters. */
export const pictureNoun = (category: Category | undefined) => (progressUnit(category) === 'pages' ? 'Cover' : 'Poster');
