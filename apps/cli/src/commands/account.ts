import { isApiError, type User } from '@mt/api-client';
import type { Command } from 'commander';
import { withExamples, type CommandContext } from '../command-context';
import { publicView } from './login';

export function registerWhoami(program: Command, ctx: CommandContext): void {
  withExamples(
    program.command('whoami').summary('who and where you are logged in').description('Show the server, the user and the credential in use (never the token itself).'),
    'mt whoami',
    'mt whoami --json | jq -r .user.username',
  ).action(async (_options: object, command: Command) => {
    const session = ctx.session(command);
    const token = session.requireToken();
    const stored = session.storedCredential();
    let user: User | null = null;
    try {
      user = await session.api(token).me();
    } catch (error) {
      // A token without profile:read is still a valid login: show what was stored with it.
      if (!isApiError(error, 'forbidden')) throw error;
    }
    const credential = stored
      ? { source: 'login', ...publicView(stored) }
      : { source: 'MT_TOKEN', prefix: token.slice(0, 8) };
    const username = user?.username ?? stored?.user.username ?? '?';
    session.output.result({ url: session.url, user, credential }, () =>
      [
        `Logged in to ${session.url} as ${session.output.style.bold(username)}${user ? ` <${user.email}>` : ''}.`,
        stored
          ? `Token "${stored.token_name}" (${stored.prefix}…, ${stored.scopes.join(' ')}), expires ${stored.expires_at.slice(0, 10)}.`
          : `Token from MT_TOKEN (${token.slice(0, 8)}…).`,
        ...(user ? [] : ['(the token lacks profile:read, so the account details are not shown)']),
      ].join('\n'),
    );
  });
}

export function registerCategories(program: Command, ctx: CommandContext): void {
  withExamples(
    program.command('categories').summary('the categories of the server').description('List the categories the server has now (movies, tvshows, books...).'),
    'mt categories',
    'mt categories --json | jq -r ".[].id"',
  ).action(async (_options: object, command: Command) => {
    const session = ctx.session(command);
    const categories = await session.api().categories();
    session.output.result(categories, () =>
      session.output.table(categories, [
        { header: 'ID', value: (category) => category.id, style: (text) => session.output.style.cyan(text) },
        { header: 'NAME', value: (category) => category.display_name },
        { header: 'DESCRIPTION', value: (category) => category.description, shrink: true },
      ]),
    );
  });
}
