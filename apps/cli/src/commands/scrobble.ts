import type { ScrobbleHook, ScrobbleInboxEntry } from '@mt/api-client';
import type { Command } from 'commander';
import { integer } from '../arguments';
import { withExamples, type CommandContext } from '../command-context';
import { CliError, usageError } from '../errors';
import { EXIT } from '../exit-codes';

const SERVERS = ['jellyfin', 'plex', 'emby', 'generic'] as const;
const STEP_UP = 'Hooks need the account scope: with a stored token that lacks it, your password is asked for (or read with --password-stdin).';

const when = (iso: string | null) => iso?.slice(0, 16).replace('T', ' ') ?? 'never';

/** `mt hooks ls|create|rm`: the URLs media servers post their webhooks to (docs/scrobbling/). */
export function registerHooks(program: Command, ctx: CommandContext): void {
  const hooks = program.command('hooks').summary('scrobble hooks for Jellyfin, Plex, Emby: ls, create, rm').description(`Scrobble hooks: a URL per media server that records what you watch there. ${STEP_UP}`);
  withExamples(hooks, 'mt hooks ls', 'mt hooks create plex "living room" --usernames alice', 'mt hooks rm "living room"');

  withExamples(
    hooks.command('ls').alias('list').summary('your hooks').description(`List your hooks with their last event (never their URLs: those are shown once, at creation). ${STEP_UP}`).option('--password-stdin', 'read the password from standard input'),
    'mt hooks ls',
    'mt hooks ls --json | jq -r ".[] | select(.last_event_at == null) | .name"',
  ).action(async (options: { passwordStdin?: boolean }, command: Command) => {
    const session = ctx.session(command);
    const list = await (await session.accountApi({ passwordStdin: options.passwordStdin, why: 'listing hooks' })).listScrobbleHooks();
    const { style } = session.output;
    session.output.result(list, () =>
      list.length === 0
        ? 'No hooks. Create one with: mt hooks create <server> <name>'
        : session.output.table(list, [
            { header: 'ID', value: (hook: ScrobbleHook) => hook.id, style: (text) => style.dim(text) },
            { header: 'NAME', value: (hook) => hook.name, style: (text) => style.bold(text) },
            { header: 'SERVER', value: (hook) => hook.server },
            { header: 'USERS', value: (hook) => (hook.usernames.length ? hook.usernames.join(' ') : 'all'), shrink: true },
            { header: 'THRESHOLD', value: (hook) => `${hook.threshold}%` },
            { header: 'LAST EVENT', value: (hook) => when(hook.last_event_at) },
          ]),
    );
  });

  withExamples(
    hooks
      .command('create')
      .summary('create a hook (its URL is shown once)')
      .description(`Create a hook for a media server; its URL, which holds the secret, is printed once on standard output (the rest on standard error). Setup per server: docs/scrobbling/. ${STEP_UP}`)
      .argument('<server>', SERVERS.join(' | '))
      .argument('<name>', 'a name for you to recognise it')
      .option('--usernames <list>', 'comma-separated media-server users whose plays count (default: all)')
      .option('--threshold <percent>', 'percent watched that counts as a play when the server stops (50-100, default 90)', integer(50, 100))
      .option('--password-stdin', 'read the password from standard input'),
    'mt hooks create jellyfin den',
    'URL=$(mt hooks create plex "living room" --usernames alice,bob --threshold 85)',
  ).action(async (server: string, name: string, options: { usernames?: string; threshold?: number; passwordStdin?: boolean }, command: Command) => {
    const session = ctx.session(command);
    if (!(SERVERS as readonly string[]).includes(server)) throw usageError(`unknown server '${server}': use ${SERVERS.join(', ')}`);
    if (!name.trim()) throw usageError('the hook name is empty');
    const usernames = options.usernames?.split(',').map((user) => user.trim()).filter(Boolean);
    const api = await session.accountApi({ passwordStdin: options.passwordStdin, why: 'creating a hook' });
    const created = await api.createScrobbleHook({ server: server as (typeof SERVERS)[number], name, ...(usernames ? { usernames } : {}), ...(options.threshold ? { threshold: options.threshold } : {}) });
    if (session.output.json) {
      session.output.result(created, () => '');
      return;
    }
    session.output.notice(`Hook "${created.name}" for ${created.server}. Give this URL to the server now: it is not shown again (docs/scrobbling/${created.server === 'generic' ? '' : `${created.server}.md`}).`);
    ctx.io.stdout.write(`${created.url}\n`);
  });

  withExamples(
    hooks.command('rm').alias('delete').summary('delete a hook').description(`Delete a hook by its name or id: its URL stops working at once. ${STEP_UP}`).argument('<name-or-id>', 'the hook name or id').option('--password-stdin', 'read the password from standard input'),
    'mt hooks rm den',
  ).action(async (nameOrId: string, options: { passwordStdin?: boolean }, command: Command) => {
    const session = ctx.session(command);
    const api = await session.accountApi({ passwordStdin: options.passwordStdin, why: 'deleting a hook' });
    const list = await api.listScrobbleHooks();
    const named = list.filter((hook) => hook.name === nameOrId);
    if (named.length > 1) throw new CliError(`${named.length} hooks are named '${nameOrId}'`, EXIT.usage, 'delete it by its id (mt hooks ls)');
    const hook = named[0] ?? list.find((candidate) => candidate.id === nameOrId.toLowerCase());
    if (!hook) throw new CliError(`no hook named or with the id '${nameOrId}'`, EXIT.notFound, 'mt hooks ls lists them');
    await api.deleteScrobbleHook(hook.id);
    session.output.result({ deleted: hook.id }, () => `Hook "${hook.name}" deleted: its URL no longer works.`);
  });
}

/** `mt inbox [resolve|dismiss]`: scrobbled plays that matched nothing in the catalog. */
export function registerInbox(program: Command, ctx: CommandContext): void {
  const inbox = program.command('inbox').summary('scrobbled plays that matched nothing: resolve, dismiss').description('Plays your media servers reported that match no catalog entry, waiting for you to say which one they are.');
  withExamples(inbox, 'mt inbox', 'mt inbox resolve 65f1c0ffee0000000000abcd 65f1c0ffee0000000000beef', 'mt inbox dismiss 65f1c0ffee0000000000abcd');
  inbox.action(async (_options: object, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    const entries = await session.api().listScrobbleInbox();
    const { style } = session.output;
    session.output.result(entries, () =>
      entries.length === 0
        ? 'The inbox is empty: every scrobbled play matched.'
        : session.output.table(entries, [
            { header: 'ID', value: (entry: ScrobbleInboxEntry) => entry.id, style: (text) => style.dim(text) },
            { header: 'TITLE', value: (entry) => `${entry.title ?? '?'}${entry.year ? ` (${entry.year})` : ''}${entry.season !== null && entry.number !== null ? ` S${entry.season}E${entry.number}` : ''}`, style: (text) => style.bold(text), shrink: true },
            { header: 'CATEGORY', value: (entry) => entry.category },
            { header: 'SERVER', value: (entry) => entry.server },
            { header: 'PLAYS', value: (entry) => String(entry.count) },
            { header: 'LAST SEEN', value: (entry) => when(entry.last_seen_at) },
          ]),
    );
  });

  withExamples(
    inbox.command('resolve').summary('record an entry’s plays against a catalog entry').description('Record the waiting plays against a catalog entry (a movie, or for an episode its show), and match that hook’s later events of the same title to it.').argument('<id>', 'the inbox entry (mt inbox)').argument('<item-id>', 'the catalog entry (mt search)'),
    'mt inbox resolve 65f1c0ffee0000000000abcd 65f1c0ffee0000000000beef',
  ).action(async (id: string, itemId: string, _options: object, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    const result = await session.api().resolveScrobbleInbox(id, itemId);
    session.output.result(result, () => `Recorded ${result.recorded} play${result.recorded === 1 ? '' : 's'}; later events of this title go to the same entry.`);
  });

  withExamples(inbox.command('dismiss').summary('drop an entry and its plays').argument('<id>', 'the inbox entry (mt inbox)'), 'mt inbox dismiss 65f1c0ffee0000000000abcd').action(
    async (id: string, _options: object, command: Command) => {
      const session = ctx.session(command);
      session.requireToken();
      await session.api().dismissScrobbleInbox(id);
      session.output.result({ dismissed: id }, () => 'Dismissed.');
    },
  );
}
