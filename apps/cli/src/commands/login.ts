import { isApiError, type ApiClient, type CreatedToken, type LoginResponse } from '@mt/api-client';
import { Option, type Command } from 'commander';
import os from 'node:os';
import { SCOPES } from '../api-values';
import { integer, scopes as parseScopes } from '../arguments';
import { withExamples, type CommandContext } from '../command-context';
import type { StoredCredential } from '../config/settings';
import { authError, usageError } from '../errors';
import { readAllStdin } from '../io';
import { promptLine, promptSecret } from '../prompt';
import { hasScope, stripNewline, type Session } from '../session';

interface LoginOptions {
  username?: string;
  passwordStdin?: boolean;
  scopes?: ReturnType<typeof parseScopes>;
  expiresInDays?: number;
  name?: string;
}

export function registerLogin(program: Command, ctx: CommandContext): void {
  withExamples(
    program
      .command('login')
      .summary('log in and store a token for this server')
      .description(
        'Log in and store a personal access token for this server (in $XDG_CONFIG_HOME/media-tracker/, mode 0600). ' +
          'Username and password are asked for on the terminal (the password without echo), or given with --username and --password-stdin. ' +
          'The password is used once, for a token; it is never stored.',
      )
      .option('-u, --username <name>', 'username or email (asked for when missing)')
      .option('--password-stdin', 'read the password from standard input')
      .option('--scopes <list>', `scopes of the token, comma-separated (${SCOPES.join(', ')}); default: all but account and catalog:moderate`, parseScopes)
      .option('--expires-in-days <days>', 'lifetime of the token (1-366, default 90)', integer(1, 366))
      .option('--name <name>', 'name of the token (default: "mt on <host> <date>")'),
    'mt login',
    'mt login --url https://media.example.com',
    'printf %s "$PASSWORD" | mt login --username alice --password-stdin --scopes list:read,list:write',
  ).action(async (options: LoginOptions, command: Command) => {
    const session = ctx.session(command);
    if (session.envToken) throw usageError('MT_TOKEN is set: it is used instead of any login', 'unset MT_TOKEN to log in');
    const username = options.username ?? (options.passwordStdin ? undefined : await promptLine(ctx.io, 'Username: '));
    if (!username) throw usageError('--password-stdin needs --username');
    const password = options.passwordStdin ? stripNewline(await readAllStdin(ctx.io)) : await promptSecret(ctx.io, 'Password: ');
    if (!password) throw usageError('the password is empty');

    const anonymous = session.api(null);
    const login = await anonymous.login({ username, password });
    const jwtClient = session.api(login.access_token);
    const created = await createToken(jwtClient, options);
    const previous = session.settings.credential(session.url);
    const stored = toStored(created, login);
    session.settings.saveCredential(session.url, stored);
    session.settings.setDefaultUrl(session.url);
    // A second login replaces the first token: revoke it rather than leave it active and forgotten.
    const replaced = previous && previous.token_id !== created.id ? await revokeQuietly(jwtClient, previous.token_id) : undefined;

    session.output.result(
      { url: session.url, user: login.user, token: publicView(stored), previous_token_revoked: replaced ?? null },
      () =>
        [
          `Logged in to ${session.url} as ${session.output.style.bold(login.user.username)}.`,
          `Token "${stored.token_name}" (${stored.prefix}…, ${stored.scopes.join(' ')}) expires ${stored.expires_at.slice(0, 10)}.`,
          ...(replaced === undefined ? [] : [replaced ? 'The previous token was revoked.' : 'The previous token was already gone.']),
        ].join('\n'),
    );
  });

  withExamples(
    program
      .command('logout')
      .summary('revoke the stored token and forget it')
      .description(
        'Revoke the stored token and forget it. Revoking needs the account scope: a token without it (the default) ' +
          'asks for your password (on the terminal, or --password-stdin) to revoke itself.',
      )
      .option('--password-stdin', 'read the password from standard input (when the token lacks the account scope)')
      .addOption(new Option('--local-only', 'only forget the token here; it stays valid until it expires or is revoked')),
    'mt logout',
    'printf %s "$PASSWORD" | mt logout --password-stdin',
  ).action(async (options: { passwordStdin?: boolean; localOnly?: boolean }, command: Command) => {
    const session = ctx.session(command);
    if (session.envToken) throw usageError('MT_TOKEN is set: logout forgets only what `mt login` stored', 'unset MT_TOKEN (and revoke it with `mt tokens revoke <id>`)');
    const stored = session.settings.credential(session.url);
    if (!stored) {
      session.output.result({ url: session.url, revoked: false, token: null }, () => `Not logged in to ${session.url}.`);
      return;
    }
    const revoked = options.localOnly ? false : await revokeStored(session, stored, Boolean(options.passwordStdin));
    session.settings.forgetCredential(session.url);
    if (!revoked) session.output.warn(`token "${stored.token_name}" (${stored.prefix}…) stays valid until ${stored.expires_at.slice(0, 10)} unless revoked`);
    session.output.result({ url: session.url, revoked, token: publicView(stored) }, () =>
      `Logged out of ${session.url}${revoked ? `; token "${stored.token_name}" revoked` : ''}.`,
    );
  });
}

/** Tokens are named after the machine and the moment, so `mt tokens ls` tells them apart. */
async function createToken(client: ApiClient, options: LoginOptions): Promise<CreatedToken> {
  const base = options.name ?? `mt on ${os.hostname().slice(0, 60)} ${new Date().toISOString().slice(0, 19).replace('T', ' ')}`;
  const body = { scopes: options.scopes, expires_in_days: options.expiresInDays };
  try {
    return await client.createToken({ name: base, ...body });
  } catch (error) {
    // Two logins in the same second from one machine: the generated name is taken, so number it.
    if (options.name || !isApiError(error, 'conflict') || !/name/i.test(error.message)) throw error;
    return client.createToken({ name: `${base} #${Math.floor(Math.random() * 1e6)}`, ...body });
  }
}

function toStored(created: CreatedToken, login: LoginResponse): StoredCredential {
  return {
    token: created.token,
    token_id: created.id,
    token_name: created.name,
    prefix: created.prefix,
    scopes: created.scopes,
    expires_at: created.expires_at,
    created_at: created.created_at,
    user: { id: login.user.id, username: login.user.username },
  };
}

/** What may be shown of a stored credential: everything but the secret. */
export const publicView = (stored: StoredCredential) => ({
  id: stored.token_id,
  name: stored.token_name,
  prefix: stored.prefix,
  scopes: stored.scopes,
  expires_at: stored.expires_at,
});

/** true when revoked now, false when it was already revoked or expired (404). */
async function revokeQuietly(client: ApiClient, tokenId: string): Promise<boolean> {
  try {
    await client.revokeToken(tokenId);
    return true;
  } catch (error) {
    if (isApiError(error, 'not_found')) return false;
    throw error;
  }
}

/** Revokes the stored token: with itself when it has the account scope, else with a password login. */
async function revokeStored(session: Session, stored: StoredCredential, passwordStdin: boolean): Promise<boolean> {
  if (hasScope(stored.scopes, 'account') && !passwordStdin) {
    try {
      return await revokeQuietly(session.api(stored.token), stored.token_id);
    } catch (error) {
      // Already revoked or expired: nothing left to revoke.
      if (isApiError(error, 'unauthorized')) return false;
      throw error;
    }
  }
  try {
    const client = await session.accountApi({ passwordStdin, username: stored.user.username, why: 'revoking the token', hint: ' (or --local-only to forget it without revoking)' });
    return await revokeQuietly(client, stored.token_id);
  } catch (error) {
    if (isApiError(error, 'unauthorized')) throw authError('wrong username or password: the token was not revoked and is still stored');
    throw error;
  }
}
