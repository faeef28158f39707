import type { ListEntry } from '@mt/api-client';
import { statusLabelsOfId } from '@mt/domain';
import type { Column } from '../output/table';
import type { Style } from '../output/style';

/** `Watched, score 9, progress 136, started 2026-01-02, finished 2026-01-03`: the status in the words the web app uses. */
export function describeListEntry(entry: ListEntry, category: string): string {
  const parts: string[] = [statusLabelsOfId(category)[entry.status]];
  if (entry.score !== null) parts.push(`score ${entry.score}`);
  if (entry.progress !== null) parts.push(`progress ${entry.progress}`);
  if (entry.started_at) parts.push(`started ${entry.started_at}`);
  if (entry.finished_at) parts.push(`finished ${entry.finished_at}`);
  return parts.join(', ') + (entry.notes ? `\nnotes: ${entry.notes}` : '');
}

const STATUS_COLOUR: Record<ListEntry['status'], keyof Pick<Style, 'green' | 'cyan' | 'yellow' | 'red' | 'dim'>> = {
  completed: 'green',
  watching: 'cyan',
  on_hold: 'yellow',
  dropped: 'red',
  plan_to_watch: 'dim',
};

export const listColumns = (style: Style, category: string): Column<ListEntry>[] => [
  { header: 'ID', value: (entry) => entry.item_id, style: (text) => style.dim(text) },
  { header: 'TITLE', value: (entry) => entry.item.title, shrink: true, style: (text) => style.bold(text) },
  { header: 'YEAR', value: (entry) => (entry.item.year === null ? '' : String(entry.item.year)) },
  { header: 'STATUS', value: (entry) => statusLabelsOfId(category)[entry.status], style: (text, entry) => style[STATUS_COLOUR[entry.status]](text) },
  { header: 'SCORE', value: (entry) => (entry.score === null ? '' : String(entry.score)) },
  { header: 'PROGRESS', value: (entry) => (entry.progress === null ? '' : String(entry.progress)) },
  { header: 'UPDATED', value: (entry) => entry.updated_at.slice(0, 10) },
];
