import { DEFAULT_STATUS_LABELS } from '@mt/domain';
import { isApiError, type Category, type ListEntryHistoryEvent, type ListStats, type ListStatus } from '@mt/api-client';
import type { Command } from 'commander';
import { LIST_STATUSES } from '../api-values';
import { isEntryId } from '../arguments';
import { withExamples, type CommandContext } from '../command-context';
import { usageError } from '../errors';
import type { Output } from '../output/output';

/** `mt stats` without a category: one row per category (its --json shape is an array of these). */
export interface CategoryStats {
  category: string;
  stats: ListStats;
}

export function registerStats(program: Command, ctx: CommandContext): void {
  withExamples(
    program
      .command('stats')
      .summary('statistics of your lists')
      .description(
        'Statistics of your list in a category (entries by status, mean score and scores, progress, completed by year), or without a category a summary of every category of the server. Exact at the moment they are read.',
      )
      .argument('[category]', 'movies, tvshows, books... (default: every category)'),
    'mt stats',
    'mt stats books',
    'mt stats movies --json | jq .mean_score',
  ).action(async (category: string | undefined, _options: object, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    const api = session.api();
    const categories = await api.categories();
    if (category !== undefined) {
      const stats = await api.listStats(category);
      const record = categories.find((candidate) => candidate.id === category);
      session.output.result(stats, () => describeStats(session.output, category, record, stats));
      return;
    }
    const rows: CategoryStats[] = [];
    for (const record of categories) {
      try {
        rows.push({ category: record.id, stats: await api.listStats(record.id) });
      } catch (error) {
        // A category the server lists without statistics (a test-only one) does not hide the others.
        if (!isApiError(error, 'not_found')) throw error;
      }
    }
    const unit = (id: string) => categories.find((record) => record.id === id)?.progress_unit ?? '';
    session.output.result(rows, () =>
      session.output.table(rows, [
        { header: 'CATEGORY', value: (row: CategoryStats) => row.category, style: (text) => session.output.style.bold(text) },
        { header: 'TOTAL', value: (row) => String(row.stats.total) },
        ...LIST_STATUSES.map((status) => ({ header: status.replace(/_/g, ' ').toUpperCase(), value: (row: CategoryStats) => String(row.stats.by_status[status]) })),
        { header: 'MEAN SCORE', value: (row) => (row.stats.mean_score === null ? '' : row.stats.mean_score.toFixed(1)) },
        { header: 'PROGRESS', value: (row) => `${row.stats.progress_total.toLocaleString('en')} ${unit(row.category)}`.trim() },
      ]),
    );
  });

  withExamples(
    program
      .command('history')
      .summary('how a list entry changed (status, score, progress)')
      .description('The changes of one entry of your list to its status, score and progress, newest first (the API keeps the last 1000).')
      .argument('<category>', 'movies, tvshows, books...')
      .argument('<id>', 'the catalog entry id'),
    'mt history movies 65f1c0ffee0000000000abcd',
    'mt history books 65f1c0ffee0000000000abcd --json | jq \'[.[] | select(.field == "status")] | length\'',
  ).action(async (category: string, id: string, _options: object, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    if (!isEntryId(id)) throw usageError(`not an entry id (24 hexadecimal characters): ${id}`);
    const events = await session.api().listEntryHistory(category, id);
    const shown = (value: ListEntryHistoryEvent['from']) => (value === null ? '—' : String(value));
    session.output.result(events, () =>
      events.length === 0
        ? 'No changes recorded.'
        : session.output.table(events, [
            { header: 'WHEN', value: (event: ListEntryHistoryEvent) => event.at.slice(0, 19).replace('T', ' '), style: (text) => session.output.style.dim(text) },
            { header: 'FIELD', value: (event) => event.field },
            { header: 'FROM', value: (event) => shown(event.from) },
            { header: 'TO', value: (event) => shown(event.to), style: (text) => session.output.style.bold(text) },
          ]),
    );
  });
}

/** The readable form of one category's statistics: labelled statuses, a bar per score, completions by year. */
function describeStats(output: Output, category: string, record: Category | undefined, stats: ListStats): string {
  const { style } = output;
  const label = (status: ListStatus) => record?.status_labels?.[status] ?? DEFAULT_STATUS_LABELS[status];
  const lines = [`${style.bold(record?.display_name ?? category)}: ${stats.total} ${stats.total === 1 ? 'entry' : 'entries'}`];
  const width = Math.max(...LIST_STATUSES.map((status) => label(status).length));
  for (const status of LIST_STATUSES) lines.push(`  ${label(status).padEnd(width)}  ${stats.by_status[status]}`);
  lines.push('', `Mean score: ${stats.mean_score === null ? 'none scored' : stats.mean_score.toFixed(1)}`);
  const scores = Array.from({ length: 10 }, (_, index) => stats.score_histogram[String(index + 1)] ?? 0);
  const most = Math.max(...scores);
  if (most > 0) {
    scores.forEach((count, index) => {
      lines.push(`  ${String(index + 1).padStart(2)}  ${style.cyan('█'.repeat(Math.ceil((count / most) * 30)))}${count ? ` ${count}` : ''}`);
    });
  }
  lines.push('', `Progress: ${stats.progress_total.toLocaleString('en')}${record?.progress_unit ? ` ${record.progress_unit}` : ''}`);
  const years = Object.entries(stats.completed_by_year).sort(([a], [b]) => a.localeCompare(b));
  if (years.length) {
    lines.push('', 'Completed by year:');
    for (const [year, count] of years) lines.push(`  ${year}  ${count}`);
  }
  return lines.join('\n');
}
