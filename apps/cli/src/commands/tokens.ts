import type { TokenMetadata } from '@mt/api-client';
import type { Command } from 'commander';
import { SCOPES } from '../api-values';
import { integer, scopes as parseScopes } from '../arguments';
import { withExamples, type CommandContext } from '../command-context';
import { CliError, usageError } from '../errors';
import { EXIT } from '../exit-codes';

const STEP_UP = 'Token management needs the account scope: with a stored token that lacks it, your password is asked for (or read with --password-stdin).';

export function registerTokens(program: Command, ctx: CommandContext): void {
  const tokens = program.command('tokens').summary('your personal access tokens: ls, create, revoke').description(`Your personal access tokens. ${STEP_UP}`);
  withExamples(tokens, 'mt tokens ls', 'mt tokens create backup --scopes list:read --expires-in-days 30', 'mt tokens revoke backup');

  withExamples(
    tokens
      .command('ls')
      .summary('your active tokens')
      .alias('list')
      .description(`List your active tokens (never their secrets; the prefix is safe to show). ${STEP_UP}`)
      .option('--password-stdin', 'read the password from standard input'),
    'mt tokens ls',
    'mt tokens ls --json | jq -r ".[] | select(.last_used_at == null) | .id"',
  ).action(async (options: { passwordStdin?: boolean }, command: Command) => {
    const session = ctx.session(command);
    const api = await session.accountApi({ passwordStdin: options.passwordStdin, why: 'listing tokens' });
    const list = await api.listTokens();
    const current = session.storedCredential()?.token_id;
    const { style } = session.output;
    session.output.result(list, () =>
      list.length === 0
        ? 'No active tokens.'
        : session.output.table(list, [
            { header: 'ID', value: (token: TokenMetadata) => token.id, style: (text) => style.dim(text) },
            // Names are what people revoke by: never cut; the scopes give up width first.
            { header: 'NAME', value: (token) => token.name + (token.id === current ? ' (this mt)' : ''), style: (text) => style.bold(text) },
            { header: 'PREFIX', value: (token) => `${token.prefix}…` },
            { header: 'SCOPES', value: (token) => token.scopes.join(' '), shrink: true },
            { header: 'EXPIRES', value: (token) => token.expires_at.slice(0, 10) },
            { header: 'LAST USED', value: (token) => token.last_used_at?.slice(0, 16).replace('T', ' ') ?? 'never' },
          ]),
    );
  });

  withExamples(
    tokens
      .command('create')
      .summary('create a token (its secret is shown once)')
      .description(
        'Create a token for a script or another machine. Its secret is printed once, on standard output (the rest on standard error), and never again. ' + STEP_UP,
      )
      .argument('<name>', 'a name unique among your active tokens')
      .option('--scopes <list>', `comma-separated (${SCOPES.join(', ')}); default: all but account and catalog:moderate`, parseScopes)
      .option('--expires-in-days <days>', 'lifetime (1-366, default 90)', integer(1, 366))
      .option('--password-stdin', 'read the password from standard input'),
    'mt tokens create nightly-backup --scopes list:read',
    'TOKEN=$(mt tokens create ci --scopes list:read,list:write --expires-in-days 30)',
  ).action(async (name: string, options: { scopes?: ReturnType<typeof parseScopes>; expiresInDays?: number; passwordStdin?: boolean }, command: Command) => {
    const session = ctx.session(command);
    if (!name.trim()) throw usageError('the token name is empty');
    const api = await session.accountApi({ passwordStdin: options.passwordStdin, why: 'creating a token' });
    const created = await api.createToken({ name, scopes: options.scopes, expires_in_days: options.expiresInDays });
    if (session.output.json) {
      session.output.result(created, () => '');
      return;
    }
    session.output.notice(`Token "${created.name}" (${created.scopes.join(' ')}) expires ${created.expires_at.slice(0, 10)}. Copy it now: it is not shown again.`);
    ctx.io.stdout.write(`${created.token}\n`);
  });

  withExamples(
    tokens
      .command('revoke')
      .summary('revoke a token')
      .description(`Revoke a token at once, by its name or its id (both in mt tokens ls). Revoking the token mt itself uses also logs out. ${STEP_UP}`)
      .argument('<name-or-id>', 'the token name or id')
      .option('--password-stdin', 'read the password from standard input'),
    'mt tokens revoke backup',
    'mt tokens revoke 65f1c0ffee0000000000abcd',
  ).action(async (nameOrId: string, options: { passwordStdin?: boolean }, command: Command) => {
    const session = ctx.session(command);
    const api = await session.accountApi({ passwordStdin: options.passwordStdin, why: 'revoking a token' });
    // Names are unique among active tokens; an id is taken as an id only when no token bears it as a name.
    const list = await api.listTokens();
    const token = list.find((t) => t.name === nameOrId) ?? list.find((t) => t.id === nameOrId.toLowerCase());
    if (!token) throw new CliError(`no active token named or with the id '${nameOrId}'`, EXIT.notFound, 'mt tokens ls lists them');
    const id = token.id;
    await api.revokeToken(id);
    const own = session.storedCredential()?.token_id === id;
    if (own) session.settings.forgetCredential(session.url);
    session.output.result({ id, revoked: true, logged_out: own }, () => `Token "${token.name}" (${id}) revoked.${own ? ' It was the token of this mt: you are logged out.' : ''}`);
  });
}
