import { ENTRY_LIMITS } from '@mt/domain';
import { resolveStatus, STATUS_HELP, statusOption } from '../status-words';
import { isApiError, MAX_BULK_IDS, type ApiClient, type ListEntry, type ListEntryPatch, type ListQuery, type ListStatus } from '@mt/api-client';
import { Option, type Command } from 'commander';
import { LIST_SORTS, MAX_PAGE_LIMIT, ORDERS } from '../api-values';
import { date, entryIds, integer, integerOrNone, isEntryId, textOrNone } from '../arguments';
import { withExamples, type CommandContext } from '../command-context';
import { CliError, usageError } from '../errors';
import { EXIT } from '../exit-codes';
import { readAllStdin } from '../io';
import type { Session } from '../session';
import { pageFooter } from './catalog';
import { describeListEntry, listColumns } from './list-format';
import { importWork, parseWorkReference, resolveItem } from './resolve-item';

/** The list-entry fields `add` and `set` take, as options. */
interface EntryFieldOptions {
  /** As typed: a stored value or a label of the category (`watched`), resolved once the category is known. */
  status?: string;
  score?: number | null;
  progress?: number | null;
  notes?: string | null;
  started?: string | null;
  finished?: string | null;
}

function addEntryFieldOptions(command: Command): Command {
  return command
    .addOption(statusOption(STATUS_HELP))
    .option('--score <n>', `score ${ENTRY_LIMITS.score.min}-${ENTRY_LIMITS.score.max} (none clears it)`, integerOrNone(ENTRY_LIMITS.score.min, ENTRY_LIMITS.score.max))
    .option('--progress <n>', 'minutes, episodes or pages so far (none clears it)', integerOrNone(0, 1_000_000_000))
    .option('--notes <text>', `notes, up to ${ENTRY_LIMITS.notesMaxLength} characters (none clears them)`, textOrNone)
    .option('--started <date>', 'start date YYYY-MM-DD (none clears it)', date)
    .option('--finished <date>', 'finish date YYYY-MM-DD (none clears it)', date);
}

function entryFields(category: string, options: EntryFieldOptions): ListEntryPatch {
  const fields: ListEntryPatch = {};
  if (options.status !== undefined) fields.status = resolveStatus(category, options.status);
  if (options.score !== undefined) fields.score = options.score;
  if (options.progress !== undefined) fields.progress = options.progress;
  if (options.notes !== undefined) fields.notes = options.notes;
  if (options.started !== undefined) fields.started_at = options.started;
  if (options.finished !== undefined) fields.finished_at = options.finished;
  return fields;
}

export function registerList(program: Command, ctx: CommandContext): void {
  withExamples(
    program
      .command('list')
      .summary('your list in a category')
      .description('Show your list in a category: one page, or every page with --all.')
      .argument('<category>', 'movies, tvshows, books...')
      .addOption(statusOption(`only entries with this status: ${STATUS_HELP}`))
      .addOption(new Option('--sort <key>', 'sort key (default updated_at)').choices(LIST_SORTS))
      .addOption(new Option('--order <order>', 'asc or desc (default: asc for title, desc otherwise)').choices(ORDERS))
      .option('--page <n>', 'page number (default 1)', integer(1, 1_000_000_000))
      .option('--limit <n>', `entries per page (1-${MAX_PAGE_LIMIT}, default 20; with --all the size of each request)`, integer(1, MAX_PAGE_LIMIT))
      .option('-a, --all', 'every entry: follow the pages to the end'),
    'mt list movies',
    'mt list books --status reading --sort title',
    'mt list movies --all --json | jq -r \'.data[] | select(.score >= 9) | .item.title\'',
  ).action(async (category: string, options: { status?: string; sort?: ListQuery['sort']; order?: ListQuery['order']; page?: number; limit?: number; all?: boolean }, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    if (options.all && options.page !== undefined) throw usageError('--all reads every page: leave out --page');
    const status = options.status === undefined ? undefined : resolveStatus(category, options.status);
    const query: ListQuery = { status, sort: options.sort, order: options.order, limit: options.limit };
    const api = session.api();
    if (!options.all) {
      const page = await api.listEntries(category, { ...query, page: options.page });
      session.output.result(page, () =>
        page.data.length ? session.output.table(page.data, listColumns(session.output.style, category)) + pageFooter(session.output, page) : 'Your list has no entries here.',
      );
      return;
    }
    const entries: ListEntry[] = [];
    for await (const entry of api.allListEntries(category, { ...query, limit: options.limit ?? MAX_PAGE_LIMIT })) entries.push(entry);
    session.output.result({ data: entries, total: entries.length }, () =>
      entries.length ? session.output.table(entries, listColumns(session.output.style, category)) : 'Your list has no entries here.',
    );
  });

  withExamples(
    addEntryFieldOptions(
      program
        .command('add')
        .summary('add an entry to your list (by id or title)')
        .description(
          'Add a catalog entry to your list: by id, by a metadata provider\'s work (--from tmdb:603), or by --title/--year. A title is searched first: ' +
            'an entry of the catalog with that title (any year unless --year is given; several: name one), else a provider\'s work of that title, imported; ' +
            'only then is an entry created from the title alone. An entry already on your list is reported with its id (exit 5).',
        )
        .argument('<category>', 'movies, tvshows, books...')
        .argument('[id]', 'the catalog entry id')
        .option('-t, --title <title>', 'find (or create) the catalog entry by title')
        .option('-y, --year <year>', 'with --title: its year', integer(1870, 2100))
        .option('--from <provider:id>', "a metadata provider's work (see mt search --provider), imported when the catalog does not have it"),
    ),
    'mt add movies 65f1c0ffee0000000000abcd --status completed --score 9',
    'mt add movies --title "The Matrix" --year 1999 --status plan_to_watch',
    'mt add books --title Dune --year 1965 --json | jq -r .item_id',
    'mt add movies --from tmdb:603 --status completed',
  ).action(async (category: string, id: string | undefined, options: EntryFieldOptions & { title?: string; year?: number; from?: string }, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    if ([id, options.title, options.from].filter((given) => given !== undefined).length > 1) throw usageError('give one of an id, --title or --from');
    if (id === undefined && options.title === undefined && options.from === undefined) throw usageError('give the id of a catalog entry, --title (and --year), or --from provider:id');
    if (id !== undefined && !isEntryId(id)) throw usageError(`not an entry id (24 hexadecimal characters): ${id}`);
    if (options.year !== undefined && options.title === undefined) throw usageError('--year goes with --title');
    const api = session.api();
    const work = options.from === undefined ? undefined : parseWorkReference(options.from);
    const itemId = id ?? (work ? await importWork(session, api, category, work.provider, work.providerId) : await resolveItem(session, api, category, { title: options.title ?? '', year: options.year }));
    let entry: ListEntry;
    try {
      entry = await api.addListEntry(category, { item_id: itemId, ...entryFields(category, options) });
    } catch (error) {
      if (isApiError(error, 'conflict')) {
        throw new CliError(`already on your ${category} list: ${itemId}`, EXIT.conflict, `change it with: mt set ${category} ${itemId} --status …`, itemId);
      }
      throw error;
    }
    session.output.result(entry, () => `Added "${entry.item.title}"${entry.item.year === null ? '' : ` (${entry.item.year})`} to your ${category} list: ${describeListEntry(entry, category)}\n${session.output.style.dim(entry.item_id)}`);
  });

  withExamples(
    addEntryFieldOptions(
      program
        .command('set')
        .summary('change entries of your list (any number)')
        .description(
          `Change entries of your list. --status alone changes any number of entries with bulk requests (${MAX_BULK_IDS} ids each); other fields change each entry. ` +
            'Ids not on your list are reported (exit 4); the others are changed. "-" reads ids from standard input.',
        )
        .argument('<category>', 'movies, tvshows, books...')
        .argument('<ids...>', 'list entry (catalog entry) ids, or - to read them from standard input'),
    ),
    'mt set movies 65f1c0ffee0000000000abcd --status watched --score 8',
    'mt list movies --all --status watching --json | jq -r ".data[].item_id" | mt set movies - --status on_hold',
  ).action(async (category: string, rawIds: string[], options: EntryFieldOptions, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    const ids = await readIds(session, rawIds);
    const fields = entryFields(category, options);
    if (Object.keys(fields).length === 0) throw usageError('nothing to change: give --status, --score, --progress, --notes, --started or --finished');
    const api = session.api();
    const result =
      Object.keys(fields).length === 1 && fields.status !== undefined
        ? await inBatches(session, ids, 'updated', (batch) => api.bulkUpdateStatus(category, batch, fields.status as ListStatus).then((r) => ({ count: r.updated, notFound: r.not_found })))
        : await patchEach(api, category, ids, fields);
    reportCounts(ctx, session, { updated: result.count, not_found: result.notFound }, `Updated ${result.count} ${plural(result.count)}.`);
  });

  withExamples(
    program
      .command('rm')
      .summary('remove entries from your list')
      .description(`Remove entries from your list (bulk requests of ${MAX_BULK_IDS} ids). Ids not on your list are reported (exit 4). "-" reads ids from standard input.`)
      .argument('<category>', 'movies, tvshows, books...')
      .argument('<ids...>', 'list entry (catalog entry) ids, or - to read them from standard input'),
    'mt rm movies 65f1c0ffee0000000000abcd',
    'mt list books --all --status dropped --json | jq -r ".data[].item_id" | mt rm books -',
  ).action(async (category: string, rawIds: string[], _options: object, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    const ids = await readIds(session, rawIds);
    const api = session.api();
    const result = await inBatches(session, ids, 'removed', (batch) => api.bulkRemoveListEntries(category, batch).then((r) => ({ count: r.deleted, notFound: r.not_found })));
    reportCounts(ctx, session, { deleted: result.count, not_found: result.notFound }, `Removed ${result.count} ${plural(result.count)}.`);
  });
}

const plural = (count: number) => (count === 1 ? 'entry' : 'entries');

async function readIds(session: Session, raw: string[]): Promise<string[]> {
  const fromStdin = raw.includes('-') ? (await readAllStdin(session.io)).split(/\s+/) : [];
  try {
    const ids = entryIds([...raw.filter((value) => value !== '-'), ...fromStdin]);
    if (!ids.length) throw usageError('no ids given');
    return ids;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw usageError((error as Error).message);
  }
}

interface Counts {
  count: number;
  notFound: string[];
}

/**
 * Bulk requests of at most 500 ids, one after the other. Each is atomic on the server; when one fails, the
 * ones before it stay applied, and the error says how far it got.
 */
async function inBatches(session: Session, ids: string[], verb: string, send: (batch: string[]) => Promise<Counts>): Promise<Counts> {
  const total: Counts = { count: 0, notFound: [] };
  const batches = Math.ceil(ids.length / MAX_BULK_IDS);
  for (let index = 0; index < batches; index += 1) {
    try {
      const result = await send(ids.slice(index * MAX_BULK_IDS, (index + 1) * MAX_BULK_IDS));
      total.count += result.count;
      total.notFound.push(...result.notFound);
    } catch (error) {
      if (index > 0) session.output.warn(`stopped at batch ${index + 1} of ${batches}: the first ${index * MAX_BULK_IDS} ids were done (${total.count} ${verb})`);
      throw error;
    }
  }
  return total;
}

/** One PATCH per entry, a few at a time; entries not on the list are collected, any other error stops. */
async function patchEach(api: ApiClient, category: string, ids: string[], fields: ListEntryPatch): Promise<Counts> {
  const result: Counts = { count: 0, notFound: [] };
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++] as string;
      try {
        await api.updateListEntry(category, id, fields);
        result.count += 1;
      } catch (error) {
        if (!isApiError(error, 'not_found')) throw error;
        result.notFound.push(id);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, ids.length) }, worker));
  return result;
}

function reportCounts(ctx: CommandContext, session: Session, value: { not_found: string[] } & Record<string, unknown>, text: string): void {
  session.output.result(value, () => text);
  if (value.not_found.length) {
    const shown = value.not_found.slice(0, 10).join(' ') + (value.not_found.length > 10 ? ` … (${value.not_found.length} in all)` : '');
    session.output.warn(`not on your list: ${shown}`);
    ctx.setExitCode(EXIT.notFound);
  }
}
