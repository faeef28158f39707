import { Command, Option } from 'commander';
import { withExamples, type CommandContext } from './command-context';
import { registerCategories, registerWhoami } from './commands/account';
import { registerCatalog } from './commands/catalog';
import { registerCompletion } from './commands/completion';
import { registerExport } from './commands/export';
import { registerImports } from './commands/imports';
import { registerList } from './commands/list';
import { registerPlays } from './commands/plays';
import { registerStats } from './commands/stats';
import { registerSync } from './commands/sync';
import { registerLogin } from './commands/login';
import { registerModeration } from './commands/moderation';
import { registerTokens } from './commands/tokens';
import { registerHooks, registerInbox } from './commands/scrobble';
import { EXIT } from './exit-codes';
import { DEFAULT_URL } from './session';

declare const MT_CLI_VERSION: string | undefined;
/** Set by the build (apps/cli/build.mjs); a run from source says so. */
export const VERSION = typeof MT_CLI_VERSION === 'string' ? MT_CLI_VERSION : '0.0.0-source';

const FOOTER = `
Environment:
  MT_URL       server to use (default: the last one logged in to, else ${DEFAULT_URL})
  MT_TOKEN     a personal access token to use instead of the stored login (scripts, CI)
  MT_MAX_WAIT  longest wait, in seconds, for a rate limit to pass (default 60)
  NO_COLOR     no colour, even on a terminal
  MT_DEBUG     print each request's method, URL, status and request id (never a credential) to stderr
  XDG_CONFIG_HOME  where media-tracker/ keeps config.json and credentials.json (default ~/.config)

Exit codes:
  ${EXIT.ok} ok   ${EXIT.error} error   ${EXIT.usage} usage (bad arguments, or input the API refused)   ${EXIT.auth} auth (not logged in, 401, 403)
  ${EXIT.notFound} not found   ${EXIT.conflict} conflict (already there)   ${EXIT.rateLimited} rate limited   ${EXIT.server} server (5xx, unreachable, timeout)   ${EXIT.interrupted} interrupted
`;

/** The whole `mt` command tree. Global options are accepted before or after the command. */
export function buildProgram(ctx: CommandContext): Command {
  const program = new Command('mt')
    .description('The media tracker on the command line: search the catalog, keep your lists, manage your tokens.')
    .version(VERSION, '-V, --version')
    .option('--url <url>', `the server (default: MT_URL, the last login, or ${DEFAULT_URL})`)
    .option('--json', 'print results as JSON (the shapes are documented; errors as JSON on stderr)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .addOption(new Option('--max-wait <seconds>', 'longest wait for a rate limit to pass (default 60; also MT_MAX_WAIT)'))
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .addHelpText('after', FOOTER)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
    });
  withExamples(program, 'mt login', 'mt search movies matrix', 'mt add movies --title "The Matrix" --year 1999 --status completed --score 9', 'mt list movies --all --json');
  registerLogin(program, ctx);
  registerWhoami(program, ctx);
  registerCategories(program, ctx);
  registerCatalog(program, ctx);
  registerList(program, ctx);
  registerImports(program, ctx);
  registerExport(program, ctx);
  registerPlays(program, ctx);
  registerStats(program, ctx);
  registerSync(program, ctx);
  registerTokens(program, ctx);
  registerHooks(program, ctx);
  registerInbox(program, ctx);
  registerModeration(program, ctx);
  registerCompletion(program, ctx);
  return program;
}
