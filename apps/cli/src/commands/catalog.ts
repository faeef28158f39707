import { isApiError, type CatalogEntry, type ListEntry, type SearchQuery } from '@mt/api-client';
import { Option, type Command } from 'commander';
import { MAX_PAGE_LIMIT, ORDERS, SEARCH_SORTS } from '../api-values';
import { integer } from '../arguments';
import { withExamples, type CommandContext } from '../command-context';
import type { Output } from '../output/output';
import { describeListEntry } from './list-format';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import type { Session } from '../session';

/**
 * The search filters the served document has, one row each: the option and the query parameter it fills (checked
 * against the generated SearchQuery type). `--person` and `--external-id` (docs/api.md "The catalog of a category") are one row each once
 * the catalog serves `person` / `external_id`.
 */
const SEARCH_FILTERS: ReadonlyArray<{ flags: string; description: string; param: keyof SearchQuery; parse?: (text: string) => unknown }> = [
  { flags: '--year <year>', description: 'only entries of this year', param: 'year', parse: integer(1870, 2100) },
  { flags: '--genre <genre>', description: 'only entries with this genre (exact, any case)', param: 'genre' },
];

export function registerCatalog(program: Command, ctx: CommandContext): void {
  const search = program
    .command('search')
    .summary('search a category\'s catalog')
    .description('Search a category\'s catalog: every word must be a title word or the start of one ("matr" finds "The Matrix"). Without words: the whole catalog, by title.')
    .argument('<category>', 'movies, tvshows, books... (see mt categories)')
    .argument('[words...]', 'words of the title');
  for (const filter of SEARCH_FILTERS) {
    const option = new Option(filter.flags, filter.description);
    if (filter.parse) option.argParser(filter.parse);
    search.addOption(option);
  }
  search
    .addOption(new Option('--sort <key>', 'sort key (default: relevance with words, else title)').choices(SEARCH_SORTS))
    .addOption(new Option('--order <order>', 'asc or desc (default: asc for title, desc otherwise)').choices(ORDERS))
    .option('--provider [name]', "search the category's metadata providers (TMDB, Open Library) instead of the catalog: works to add with mt add --from")
    .option('--page <n>', 'page number', integer(1, 1_000_000_000))
    .option('--limit <n>', `entries per page (1-${MAX_PAGE_LIMIT}, default 20)`, integer(1, MAX_PAGE_LIMIT));
  withExamples(search, 'mt search movies matrix', 'mt search books --genre fantasy --sort year --limit 50', 'mt search movies blade runner --year 1982 --json | jq -r ".data[0].id"', 'mt search movies alien --provider');
  search.action(async (category: string, words: string[], options: Record<string, unknown>, command: Command) => {
    const session = ctx.session(command);
    if (options['provider'] !== undefined) return searchProviders(session, category, words, options);
    const query: Record<string, unknown> = {};
    if (words.length) query['q'] = words.join(' ');
    for (const filter of SEARCH_FILTERS) {
      const key = optionKey(filter.flags);
      if (options[key] !== undefined) query[filter.param] = options[key];
    }
    for (const key of ['sort', 'order', 'page', 'limit']) if (options[key] !== undefined) query[key] = options[key];
    const page = await session.api().searchEntries(category, query as SearchQuery);
    session.output.result(page, () =>
      page.data.length === 0
        ? 'No entries found.'
        : session.output.table(page.data, [
            { header: 'ID', value: (entry) => entry.id, style: (text) => session.output.style.dim(text) },
            { header: 'TITLE', value: (entry) => entry.title, shrink: true, style: (text) => session.output.style.bold(text) },
            { header: 'YEAR', value: (entry) => (entry.year === null ? '' : String(entry.year)) },
            { header: 'GENRES', value: (entry) => entry.genres.join(', '), shrink: true },
          ]) + pageFooter(session.output, page),
    );
  });

  withExamples(
    program
      .command('show')
      .summary('one catalog entry, and your list entry for it')
      .description('Show one catalog entry, with your list entry for it when you are logged in.')
      .argument('<category>', 'movies, tvshows, books...')
      .argument('<id>', 'the catalog entry id'),
    'mt show movies 65f1c0ffee0000000000abcd',
    'mt show books 65f1c0ffee0000000000abcd --json | jq .list_entry.status',
  ).action(async (category: string, id: string, _options: object, command: Command) => {
    const session = ctx.session(command);
    const api = session.api();
    const entry = await api.getEntry(category, id);
    let listEntry: ListEntry | null = null;
    if (session.token()) {
      try {
        listEntry = await api.getListEntry(category, id);
      } catch (error) {
        // Not on the list, or a token without list:read: the catalog entry is still the answer.
        if (!isApiError(error, 'not_found') && !isApiError(error, 'forbidden')) throw error;
      }
    }
    session.output.result({ entry, list_entry: listEntry }, () => describeEntry(session.output, category, entry, listEntry));
  });
}

/** `mt search <category> <words> --provider [name]`: works found at the providers, and which the catalog has already. */
async function searchProviders(session: Session, category: string, words: string[], options: Record<string, unknown>): Promise<void> {
  session.requireToken();
  if (!words.length) throw new CliError('give words to search the providers for', EXIT.usage);
  for (const key of ['genre', 'sort', 'order', 'page', 'limit']) {
    if (options[key] !== undefined) throw new CliError(`--${key} does not apply to a provider search`, EXIT.usage);
  }
  const provider = typeof options['provider'] === 'string' ? options['provider'] : undefined;
  const year = typeof options['year'] === 'number' ? options['year'] : undefined;
  const found = await session.api().searchProviders(category, { q: words.join(' '), ...(year === undefined ? {} : { year }), ...(provider ? { provider } : {}) });
  session.output.result(found, () =>
    found.data.length === 0
      ? 'No works found.'
      : session.output.table(found.data, [
          { header: 'WORK', value: (hit) => `${hit.provider}:${hit.provider_id}`, style: (text) => session.output.style.dim(text) },
          { header: 'TITLE', value: (hit) => hit.title, shrink: true, style: (text) => session.output.style.bold(text) },
          { header: 'YEAR', value: (hit) => (hit.year === null ? '' : String(hit.year)) },
          { header: 'IN CATALOG', value: (hit) => hit.existing_id ?? '' },
        ]) + (session.output.tty ? session.output.style.dim('add one with: mt add ' + category + ' --from <work>') + '\n' : ''),
  );
}

/** `--external-id <x>` → `externalId`, as commander names option values. */
const optionKey = (flags: string): string =>
  (flags.split(/[ ,]+/).find((part) => part.startsWith('--')) ?? '').slice(2).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

export function pageFooter(output: Output, page: { page: number; total_pages: number; total: number }): string {
  if (!output.tty) return '';
  return output.style.dim(`page ${page.page} of ${Math.max(page.total_pages, 1)} (${page.total} in all)`) + '\n';
}

const SHARED_FIELDS = new Set(['id', 'title', 'year', 'description', 'genres', 'created_by', 'created_at', 'updated_at']);

function describeEntry(output: Output, category: string, entry: CatalogEntry, listEntry: ListEntry | null): string {
  const { style } = output;
  const lines = [`${style.bold(entry.title)}${entry.year === null ? '' : ` (${entry.year})`}  ${style.dim(entry.id)}`];
  if (entry.genres.length) lines.push(`genres: ${entry.genres.join(', ')}`);
  for (const [field, value] of Object.entries(entry)) {
    if (SHARED_FIELDS.has(field) || value === null || (Array.isArray(value) && value.length === 0)) continue;
    lines.push(`${field.replace(/_/g, ' ')}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  }
  if (entry.description) lines.push('', entry.description);
  lines.push('', listEntry ? `On your list: ${describeListEntry(listEntry, category)}` : style.dim('Not on your list.'));
  return lines.join('\n');
}
