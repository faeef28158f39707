import type { PlaysRequest, ShowProgress, UpNextItem, DiaryPlay } from '@mt/api-client';
import { InvalidArgumentError, type Command } from 'commander';
import { MAX_PAGE_LIMIT } from '../api-values';
import { date, integer, isEntryId } from '../arguments';
import { withExamples, type CommandContext } from '../command-context';
import { usageError } from '../errors';
import type { Style } from '../output/style';
import { describeListEntry } from './list-format';

/** `--at`: a word of the API, a day, or an instant (docs/api.md "Episodes, plays and rewatches"). */
export function playTime(text: string): string {
  if (['now', 'release', 'unknown'].includes(text)) return text;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return date(text) ?? text;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) && !Number.isNaN(Date.parse(text))) return text;
  throw new InvalidArgumentError('expected now, release, unknown, a date YYYY-MM-DD or a date-time with its zone (2026-11-21T20:30:00Z)');
}

const itemId = (id: string): string => {
  if (!isEntryId(id)) throw usageError(`not an entry id (24 hexadecimal characters): ${id}`);
  return id;
};

/** `S01E02`, or `—` for a play of a whole work. */
export const episodeLabel = (play: { season: number | null; number: number | null }): string =>
  play.season === null || play.number === null ? '—' : `S${String(play.season).padStart(2, '0')}E${String(play.number).padStart(2, '0')}`;

const when = (play: { watched_at: string | null; precision: string }): string =>
  play.watched_at === null ? 'unknown' : play.precision === 'exact' ? play.watched_at.slice(0, 16).replace('T', ' ') : play.watched_at.slice(0, 10);

interface WatchOptions {
  season?: number;
  episode?: number;
  allAired?: boolean;
  at?: string;
}

/** The body of `mt watch`: one episode, one season's aired episodes, every aired one, or the whole work. */
export function watchRequest(options: WatchOptions): PlaysRequest {
  if (options.episode !== undefined && options.season === undefined) throw usageError('--episode goes with --season');
  if (options.allAired && options.season !== undefined) throw usageError('give --season (and --episode) or --all-aired, not both');
  const body: PlaysRequest = { watched_at: options.at ?? 'now' };
  if (options.season !== undefined && options.episode !== undefined) body.episodes = [{ season: options.season, number: options.episode }];
  else if (options.season !== undefined) body.seasons = [options.season];
  else if (options.allAired) body.all_aired = true;
  return body;
}

export function registerPlays(program: Command, ctx: CommandContext): void {
  withExamples(
    program
      .command('watch')
      .summary('record that you watched (or read) something')
      .description(
        'Record a play: a movie or a book, one episode (--season and --episode), every aired episode of a season (--season), or every aired episode of a show (--all-aired). ' +
          'The entry joins your list when it is not on it; its status and progress follow the plays (a show completes when every aired episode is played).',
      )
      .argument('<category>', 'movies, tvshows, books...')
      .argument('<item>', 'the catalog entry id')
      .option('--season <n>', 'the season (0: specials)', integer(0, 1000))
      .option('--episode <n>', 'with --season: the episode number', integer(1, 10000))
      .option('--all-aired', 'every aired episode of the show (specials excepted)')
      .option('--at <when>', 'now (default), release, unknown, YYYY-MM-DD or a date-time', playTime),
    'mt watch movies 65f1c0ffee0000000000abcd --at 2026-11-21',
    'mt watch tvshows 65f1c0ffee0000000000abcd --season 1 --episode 3',
    'mt watch tvshows 65f1c0ffee0000000000abcd --season 2 --at release',
  ).action(async (category: string, id: string, options: WatchOptions, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    const body = watchRequest(options);
    const api = session.api();
    const recorded = await api.recordPlays(category, itemId(id), body);
    const entry = await api.getListEntry(category, id);
    session.output.result({ ...recorded, entry }, () => {
      const added = recorded.added.length;
      const head = `Recorded ${added} ${added === 1 ? 'play' : 'plays'} of "${entry.item.title}"${recorded.existing ? ` (${recorded.existing} already recorded)` : ''}.`;
      return `${head}\nNow: ${describeListEntry(entry, category)}`;
    });
  });

  withExamples(
    program
      .command('progress')
      .summary("a show's progress, season by season, and its next episode")
      .description('Your progress in a show of your tvshows list: episodes played of those aired in the current cycle, season by season, and the next episode to watch.')
      .argument('<item>', 'the catalog entry id of the show'),
    'mt progress 65f1c0ffee0000000000abcd',
    "mt progress 65f1c0ffee0000000000abcd --json | jq '.next_episode'",
  ).action(async (id: string, _options: object, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    const progress = await session.api().showProgress(itemId(id));
    session.output.result(progress, () => describeProgress(session.output.style, progress));
  });

  withExamples(
    program
      .command('up-next')
      .summary('the next episode of each show you are watching')
      .description('Your shows being watched that have an aired episode you have not played, most recently played first.')
      .option('--limit <n>', `shows (1-${MAX_PAGE_LIMIT}, default 20)`, integer(1, MAX_PAGE_LIMIT)),
    'mt up-next',
    "mt up-next --json | jq -r '.data[].item.title'",
  ).action(async (options: { limit?: number }, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    const page = await session.api().upNext({ limit: options.limit });
    const { style } = session.output;
    session.output.result(page, () =>
      page.data.length === 0
        ? 'Nothing up next: no show you are watching has an aired episode left.'
        : session.output.table(page.data, [
            { header: 'ID', value: (row: UpNextItem) => row.item.id, style: (text) => style.dim(text) },
            { header: 'SHOW', value: (row) => row.item.title, shrink: true, style: (text) => style.bold(text) },
            { header: 'NEXT', value: (row) => `${episodeLabel(row.next_episode)}${row.next_episode.title ? ` ${row.next_episode.title}` : ''}`, shrink: true },
            { header: 'PROGRESS', value: (row) => `${row.completed}/${row.aired}` },
            { header: 'LAST PLAYED', value: (row) => row.last_played_at?.slice(0, 10) ?? '' },
          ]),
    );
  });

  withExamples(
    program
      .command('diary')
      .summary('what you watched (or read), newest first')
      .description('Your plays in a category across every work, newest first (plays of unknown date last), optionally between two days (both included). --all follows the pages to the end.')
      .argument('<category>', 'movies, tvshows, books...')
      .option('--from <date>', 'from this day (YYYY-MM-DD)', date)
      .option('--to <date>', 'up to this day, included (YYYY-MM-DD)', date)
      .option('--limit <n>', `plays per page (1-${MAX_PAGE_LIMIT}, default 20)`, integer(1, MAX_PAGE_LIMIT))
      .option('-a, --all', 'every play: follow the pages to the end'),
    'mt diary movies --from 2026-01-01',
    'mt diary tvshows --from 2026-11-01 --to 2026-11-30 --all --json | jq \'.data | length\'',
  ).action(async (category: string, options: { from?: string | null; to?: string | null; limit?: number; all?: boolean }, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    if (options.from && options.to && options.to < options.from) throw usageError('--to is before --from');
    const query = { from: options.from ?? undefined, to: options.to ?? undefined, limit: options.limit };
    const api = session.api();
    const plays: DiaryPlay[] = [];
    let nextCursor: string | null = null;
    if (options.all) for await (const play of api.allDiary(category, { ...query, limit: options.limit ?? MAX_PAGE_LIMIT })) plays.push(play);
    else {
      const page = await api.diary(category, query);
      plays.push(...page.data);
      nextCursor = page.next_cursor;
    }
    const { style } = session.output;
    session.output.result({ data: plays, next_cursor: nextCursor }, () =>
      plays.length === 0
        ? 'No plays recorded here.'
        : session.output.table(plays, [
            { header: 'WHEN', value: (play: DiaryPlay) => when(play), style: (text) => style.dim(text) },
            { header: 'TITLE', value: (play) => play.item.title, shrink: true, style: (text) => style.bold(text) },
            { header: 'EPISODE', value: (play) => episodeLabel(play) },
            { header: 'CYCLE', value: (play) => String(play.cycle) },
            { header: 'SOURCE', value: (play) => play.source },
          ]) + (nextCursor ? `\n${style.dim('More plays: --all reads every page.')}` : ''),
    );
  });
}

/** `Severance: 7/9 episodes (cycle 1)`, a line per season, the next episode. */
export function describeProgress(style: Style, progress: ShowProgress): string {
  const lines = [`${style.bold(`${progress.completed}/${progress.aired}`)} aired episodes played (cycle ${progress.cycle})`];
  for (const season of progress.seasons) {
    const done = season.aired > 0 && season.completed >= season.aired;
    const name = season.number === 0 ? 'Specials' : `Season ${season.number}`;
    lines.push(`  ${name.padEnd(10)} ${`${season.completed}/${season.aired}`.padStart(7)}${done ? ` ${style.green('✓')}` : ''}`);
  }
  const next = progress.next_episode;
  lines.push(next ? `Next: ${episodeLabel(next)}${next.title ? ` "${next.title}"` : ''}${next.air_date ? ` (aired ${next.air_date})` : ''}` : 'Next: nothing aired is left.');
  if (progress.last_played_at) lines.push(style.dim(`Last played ${progress.last_played_at.slice(0, 10)}`));
  return lines.join('\n');
}

