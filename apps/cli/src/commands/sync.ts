import { isApiError, type ApiClient, type ListChange, type ListEntry, type Play } from '@mt/api-client';
import type { Command } from 'commander';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withExamples, type CommandContext } from '../command-context';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import type { Session } from '../session';

/** The largest page the change feed gives (docs/api.md "Your list in a category"). */
const FEED_PAGE = 500;
export const SYNC_FORMAT = 'media-tracker/sync@1';

/**
 * `<dir>/<category>.json`: the copy of the list and the feed position it is current at, in one file so that
 * both are replaced together (temporary file + rename): a sync interrupted at any point leaves the previous
 * copy with its own position, never a copy and a position that disagree.
 */
export interface SyncFile {
  format: typeof SYNC_FORMAT;
  server: string;
  category: string;
  synced_at: string;
  /** Where the change feed stood when the copy was made: the next run asks for the changes since then. */
  next_since: string;
  /** The list entries, as GET /{category}/list gives them, by item_id. */
  entries: ListEntry[];
  /** Their plays, as the change feed gives them, by item_id then id (absent in copies made before plays: none). */
  plays: Play[];
}

/** What one `mt sync` did (its --json shape). */
export interface SyncReport {
  category: string;
  file: string;
  /** `full`: the whole list was read (first run, or the saved position had expired); `changes`: only what changed. */
  read: 'full' | 'changes';
  /** The saved position was older than the feed keeps (410 cursor_expired): the copy was read again from scratch. */
  restarted: boolean;
  upserted: number;
  deleted: number;
  total: number;
  plays_added: number;
  plays_deleted: number;
  plays: number;
}

export function registerSync(program: Command, ctx: CommandContext): void {
  withExamples(
    program
      .command('sync')
      .summary('keep a local JSON copy of your list current')
      .description(
        'Keep <dir>/<category>.json a copy of your list, through the change feed: the first run reads the whole list (the feed from its start) and records where the feed stands; ' +
          'later runs apply only what changed since (added and changed entries, removals) and record the new position. ' +
          'The copy and the position are one file, replaced at once (written to a temporary file, then renamed): an interrupted sync leaves the previous copy as it was. ' +
          'When the saved position is older than the server keeps removals (90 days), the list is read again from scratch, and mt says so.',
      )
      .argument('<category>', 'movies, tvshows, books...')
      .argument('<dir>', 'the directory of the copy (created if missing)'),
    'mt sync movies ~/backup/media-tracker',
    'mt sync books . --json && jq ".entries | length" books.json',
  ).action(async (category: string, dir: string, _options: object, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${category}.json`);
    const saved = readSyncFile(file, session.url, category);
    const api = session.api();
    const report = await syncList(session, api, category, saved);
    const copy: SyncFile = {
      format: SYNC_FORMAT,
      server: session.url,
      category,
      synced_at: new Date().toISOString(),
      next_since: report.nextSince,
      entries: [...report.entries.values()].sort((a, b) => a.item_id.localeCompare(b.item_id)),
      plays: [...report.plays.values()].sort((a, b) => a.item_id.localeCompare(b.item_id) || a.id.localeCompare(b.id)),
    };
    writeAtomically(file, `${JSON.stringify(copy, null, 2)}\n`);
    const result: SyncReport = {
      category,
      file,
      read: report.read,
      restarted: report.restarted,
      upserted: report.upserted,
      deleted: report.deleted,
      total: copy.entries.length,
      plays_added: report.playsAdded,
      plays_deleted: report.playsDeleted,
      plays: copy.plays.length,
    };
    session.output.result(result, () =>
      result.read === 'full'
        ? `Read your whole ${category} list into ${file}: ${result.total} ${result.total === 1 ? 'entry' : 'entries'}.`
        : `Synced ${file}: ${result.upserted} added or changed, ${result.deleted} removed; ${result.total} ${result.total === 1 ? 'entry' : 'entries'}.` +
            (result.plays_added || result.plays_deleted ? ` Plays: ${result.plays_added} added, ${result.plays_deleted} removed; ${result.plays} in all.` : ''),
    );
  });
}

/** The saved copy, or undefined on a first run; a file that is not a copy of this list on this server is an error (never overwritten). */
function readSyncFile(file: string, server: string, category: string): SyncFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, EXIT.error);
  }
  let saved: Partial<SyncFile>;
  try {
    saved = JSON.parse(text) as Partial<SyncFile>;
  } catch {
    throw new CliError(`${file} is not a copy made by mt sync (not JSON)`, EXIT.error, 'move it away, or give another directory');
  }
  if (saved.format !== SYNC_FORMAT || typeof saved.next_since !== 'string' || !Array.isArray(saved.entries)) {
    throw new CliError(`${file} is not a copy made by mt sync`, EXIT.error, 'move it away, or give another directory');
  }
  if (saved.server !== server || saved.category !== category) {
    throw new CliError(`${file} is a copy of the ${String(saved.category)} list on ${String(saved.server)}, not of ${category} on ${server}`, EXIT.usage, 'give another directory');
  }
  return saved as SyncFile;
}

interface SyncOutcome {
  entries: Map<string, ListEntry>;
  plays: Map<string, Play>;
  playsAdded: number;
  playsDeleted: number;
  nextSince: string;
  read: 'full' | 'changes';
  restarted: boolean;
  upserted: number;
  deleted: number;
}

/**
 * Applies the change feed to the saved copy, in order, until the feed has nothing more. Without a saved copy
 * the feed is read from its start: a replay of it ends with exactly the list (docs/api.md "Your list in a category"), and the position
 * it ends at is where the list was read, so no write made meanwhile is missed.
 */
async function syncList(session: Session, api: ApiClient, category: string, saved: SyncFile | undefined): Promise<SyncOutcome> {
  const entries = new Map((saved?.entries ?? []).map((entry) => [entry.item_id, entry]));
  const plays = new Map((saved?.plays ?? []).map((play) => [play.id, play]));
  const outcome: SyncOutcome = { entries, plays, playsAdded: 0, playsDeleted: 0, nextSince: '', read: saved ? 'changes' : 'full', restarted: false, upserted: 0, deleted: 0 };
  let since = saved?.next_since;
  for (;;) {
    let page;
    try {
      page = await api.listChanges(category, { since, limit: FEED_PAGE });
    } catch (error) {
      if (since === undefined || !isApiError(error, 'cursor_expired')) throw error;
      session.output.notice(`The saved position of ${category} is older than the server keeps removals: reading the whole list again.`);
      Object.assign(outcome, { read: 'full', restarted: true, upserted: 0, deleted: 0, playsAdded: 0, playsDeleted: 0 });
      entries.clear();
      plays.clear();
      since = undefined;
      continue;
    }
    for (const change of page.changes) applyChange(outcome, change);
    since = page.next_since;
    if (!page.has_more) break;
  }
  outcome.nextSince = since;
  return outcome;
}

/** One change of the feed applied to the copy; an entry removed from the list takes its plays with it. */
function applyChange(outcome: SyncOutcome, change: ListChange): void {
  switch (change.type) {
    case 'upsert':
      outcome.entries.set(change.item_id, change.entry);
      outcome.upserted += 1;
      return;
    case 'delete':
      if (outcome.entries.delete(change.item_id)) outcome.deleted += 1;
      for (const [id, play] of outcome.plays) if (play.item_id === change.item_id) outcome.plays.delete(id);
      return;
    case 'play':
      if (!outcome.plays.has(change.play.id)) outcome.playsAdded += 1;
      outcome.plays.set(change.play.id, change.play);
      return;
    case 'play_delete':
      if (outcome.plays.delete(change.play_id)) outcome.playsDeleted += 1;
      return;
  }
}

/** Replaces `file` at once: the new content under a temporary name in the same directory, then renamed over it. */
function writeAtomically(file: string, content: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeFileSync(fd, content);
      fsyncSync(fd); // on disk before the rename makes it the copy
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CliError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, EXIT.error);
  }
}
