import type { Category, ListStatus } from '@mt/api-client';

/** The five stored statuses (API.md §6), in the order a person moves through them. */
export const STATUSES: readonly ListStatus[] = ['watching', 'plan_to_watch', 'completed', 'on_hold', 'dropped'];

/** Generic words, used until a category record names its own (`status_labels`, API.md §13). */
const GENERIC_STATUS_LABELS: Record<ListStatus, string> = {
  watching: 'In progress',
  completed: 'Completed',
  on_hold: 'On hold',
  dropped: 'Dropped',
  plan_to_watch: 'Planned',
};

/** The category record with the labelling fields another issue adds; absent until then. */
export type LabelledCategory = Category & {
  status_labels?: Partial<Record<ListStatus, string>> | null;
  progress_unit?: string | null;
};

export function statusLabel(category: Category | undefined, status: ListStatus): string {
  const own = (category as LabelledCategory | undefined)?.status_labels?.[status];
  return typeof own === 'string' && own.trim() ? own : GENERIC_STATUS_LABELS[status];
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

/** "movie", "TV show", "book": a singular for buttons, from the display name; generic without one. */
export function entryNoun(category: Category | undefined): string {
  const name = category?.display_name?.trim();
  if (!name) return 'entry';
  const words = name.split(/\s+/).map((word) => (word === word.toUpperCase() ? word : word.toLowerCase()));
  const last = words.length - 1;
  words[last] = words[last]!.replace(/s$/i, '');
  return words.join(' ');
}
