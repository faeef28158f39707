// The built `mt` as a process against a started stack (real MongoDB and Redis): every command, the scripted
// journey, the interactive login on a pseudo-terminal, bulk changes over 500 ids, --all over 250 entries,
// completion, colour, and a search of everything the CLI printed or stored for its secrets.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closedPort } from '@mt/testing';
import type { ApiClient, ListEntry, ListEntryPage, TokenMetadata } from '@mt/api-client';
import { clientFor, registerUser, seedList, type TestUser } from './support/api';
import { startCliStack, type CliStack } from './support/cli-stack';
import { runInPty } from './support/pty';
import { MT_MAIN, MtRunner, type MtResult } from './support/run-mt';

const EXIT = { ok: 0, usage: 2, auth: 3, notFound: 4, conflict: 5, rateLimited: 6, server: 7 };
const ESC = String.fromCharCode(27);

let cli: CliStack;
/** Secrets this file saw: no output, log or other file may contain them. */
const secrets = new Set<string>();
const runners: MtRunner[] = [];
const newRunner = () => {
  const runner = new MtRunner(cli.url);
  runners.push(runner);
  return runner;
};
const storedCredential = (runner: MtRunner) =>
  JSON.parse(readFileSync(path.join(runner.configDir, 'credentials.json'), 'utf8')).servers[cli.url] as { token: string; token_id: string; scopes: string[] };
const expectExit = (result: MtResult, code: number) => {
  if (result.code !== code) throw new Error(`mt ${result.args.join(' ')} exited ${result.code}, expected ${code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
};

async function loggedIn(prefix: string, options: { username?: string; scopes?: string } = {}): Promise<{ runner: MtRunner; user: TestUser }> {
  const user = await registerUser(cli.url, prefix, options.username);
  secrets.add(user.password);
  const runner = newRunner();
  const scopes = options.scopes ? ['--scopes', options.scopes] : [];
  const login = await runner.run(['login', '--username', user.username, '--password-stdin', ...scopes], { input: `${user.password}\n` });
  expectExit(login, EXIT.ok);
  secrets.add(storedCredential(runner).token);
  return { runner, user };
}

/** One logged-in user shared by the tests that need no account of their own (each login costs an argon2 hash). */
let main: { runner: MtRunner; user: TestUser };
/** Named admin by the stack's ADMIN_USERNAMES (docs/api.md "Authentication"). */
const ADMIN = `admin_${Math.random().toString(16).slice(2, 10)}`;

beforeAll(async () => {
  // Seeding 520 entries takes over a thousand requests: no rate limit on this stack (the other file tests it).
  cli = await startCliStack('commands', { RATE_LIMIT_PER_MINUTE: '0', ADMIN_USERNAMES: ADMIN });
  main = await loggedIn('main');
}, 180_000);

afterAll(async () => {
  await cli?.stop();
  for (const runner of runners) runner.dispose();
});

describe('the scripted journey', () => {
  it('logs in from stdin, adds, changes, lists as JSON for a script, logs out, and is refused afterwards', async () => {
    const user = await registerUser(cli.url, 'journey');
    secrets.add(user.password);
    const runner = newRunner();

    const login = await runner.run(['login', '--username', user.username, '--password-stdin', '--json'], { input: `${user.password}\n` });
    expectExit(login, EXIT.ok);
    const loginJson = login.json<{ url: string; user: { username: string }; token: { prefix: string; scopes: string[] } }>();
    expect(loginJson).toMatchObject({ url: cli.url, user: { username: user.username } });
    // The default scopes: every one but account.
    expect(loginJson.token.scopes.sort()).toEqual(['catalog:write', 'list:read', 'list:write', 'profile:read']);
    const credential = storedCredential(runner);
    secrets.add(credential.token);
    expect(credential.token).toMatch(/^mtp_[0-9A-Za-z]{38}$/);
    expect(loginJson.token.prefix).toBe(credential.token.slice(0, 8));
    expect(statSync(path.join(runner.configDir, 'credentials.json')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(runner.configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(runner.configDir).mode & 0o777).toBe(0o700);

    const matrix = await runner.run(['add', 'movies', '--title', 'The Matrix', '--year', '1999', '--json']);
    expectExit(matrix, EXIT.ok);
    const matrixEntry = matrix.json<ListEntry>();
    expect(matrixEntry).toMatchObject({ item: { title: 'The Matrix', year: 1999 }, status: 'plan_to_watch' });
    const arrival = await runner.run(['add', 'movies', '--title', 'Arrival', '--year', '2016', '--status', 'watching', '--json']);
    expectExit(arrival, EXIT.ok);
    const arrivalId = arrival.json<ListEntry>().item_id;

    const set = await runner.run(['set', 'movies', matrixEntry.item_id, arrivalId, '--status', 'completed', '--json']);
    expectExit(set, EXIT.ok);
    expect(set.json()).toEqual({ updated: 2, not_found: [] });
    const scored = await runner.run(['set', 'movies', matrixEntry.item_id, '--score', '9', '--progress', '136']);
    expectExit(scored, EXIT.ok);

    // `mt list --json` piped into a script that checks it (node stands in for jq).
    const check = [
      'let s = "";',
      'process.stdin.on("data", (c) => (s += c)).on("end", () => {',
      '  const page = JSON.parse(s);',
      '  const matrix = page.data.find((e) => e.item.title === "The Matrix");',
      '  const ok = page.total === 2 && page.data.every((e) => e.status === "completed") && matrix.score === 9 && matrix.progress === 136;',
      '  process.exit(ok ? 0 : 1);',
      '});',
    ].join(' ');
    const pipeline = spawnSync('bash', ['-o', 'pipefail', '-c', `"${process.execPath}" "${MT_MAIN}" list movies --json | "${process.execPath}" -e '${check}'`], {
      env: runner.env(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: pipeline.status, stderr: pipeline.stderr }).toEqual({ status: 0, stderr: '' });

    const logout = await runner.run(['logout', '--password-stdin', '--json'], { input: user.password });
    expectExit(logout, EXIT.ok);
    expect(logout.json()).toMatchObject({ url: cli.url, revoked: true, token: { id: credential.token_id } });
    expect(JSON.parse(readFileSync(path.join(runner.configDir, 'credentials.json'), 'utf8')).servers).toEqual({});

    const after = await runner.run(['list', 'movies']);
    expectExit(after, EXIT.auth);
    expect(after.stderr).toContain(`not logged in to ${cli.url}`);
    // The token was revoked on the server, not only forgotten: sent again, it is refused.
    const revoked = await runner.run(['whoami'], { env: { MT_TOKEN: credential.token } });
    expectExit(revoked, EXIT.auth);
    expect(revoked.stderr).toMatch(/HTTP 401, unauthorized, request id \S+/);
  });
});

describe('interactive login on a terminal', () => {
  it('asks for the username and the password, and never echoes the password', async () => {
    const user = await registerUser(cli.url, 'tty');
    secrets.add(user.password);
    const runner = newRunner();
    const session = runInPty(['login'], {
      env: runner.env({ TERM: 'xterm' }),
      cwd: runner.home,
      script: [
        ['Username: ', `${user.username}\r`],
        ['Password: ', `${user.password}\r`],
      ],
    });
    expect(session.unanswered).toEqual([]);
    expect(session.exit_code).toBe(EXIT.ok);
    expect(session.output).toContain(user.username); // the username is echoed as typed
    expect(session.output).not.toContain(user.password);
    expect(session.output).toContain(`Logged in to ${cli.url} as`);
    const credential = storedCredential(runner);
    secrets.add(credential.token);
    expect(session.output).not.toContain(credential.token);

    const whoami = await runner.run(['whoami', '--json']);
    expectExit(whoami, EXIT.ok);
    expect(whoami.json()).toMatchObject({ user: { username: user.username }, credential: { source: 'login', prefix: credential.token.slice(0, 8) } });
  });

  it('stops with the interrupted code on Ctrl-C at the password prompt, storing nothing', () => {
    const runner = newRunner();
    const session = runInPty(['login', '--username', 'someone'], { env: runner.env(), cwd: runner.home, script: [['Password: ', 'half\u0003']] });
    expect(session.unanswered).toEqual([]);
    expect(session.exit_code).toBe(130);
    expect(session.output).not.toContain('half');
    expect(() => readdirSync(runner.configDir)).toThrow(/ENOENT/);
  });

  it('revokes on logout with the password asked on the terminal when the token lacks the account scope', async () => {
    const { runner, user } = await loggedIn('ttyout');
    const session = runInPty(['logout'], { env: runner.env(), cwd: runner.home, script: [['Password for', `${user.password}\r`]] });
    expect(session.unanswered).toEqual([]);
    expect(session.exit_code).toBe(EXIT.ok);
    expect(session.output).not.toContain(user.password);
    expect(session.output).toContain('revoked');
  });

  it('colours tables on a terminal only, and not with NO_COLOR', async () => {
    const runner = newRunner();
    const coloured = runInPty(['categories'], { env: runner.env({ TERM: 'xterm' }), cwd: runner.home });
    expect(coloured.exit_code).toBe(0);
    expect(coloured.output).toContain(`${ESC}[1mID`);
    const noColour = runInPty(['categories'], { env: runner.env({ TERM: 'xterm', NO_COLOR: '1' }), cwd: runner.home });
    expect(noColour.output).toMatch(/ID\s+NAME\s+DESCRIPTION/);
    expect(noColour.output).not.toContain(`${ESC}[`);
    const piped = await runner.run(['categories']);
    expect(piped.stdout).not.toContain(`${ESC}[`);
    expect(piped.stdout.split('\n')[0]).toBe('books\tBooks\tNovels, non-fiction and comics');
  });
});

describe('reading', () => {
  it('lists the categories as a table and as JSON', async () => {
    const runner = newRunner();
    const json = await runner.run(['categories', '--json']);
    expectExit(json, EXIT.ok);
    expect(json.json<Array<{ id: string }>>().map((category) => category.id)).toEqual(['books', 'movies', 'tvshows']);
  });

  it('searches the catalog with filters and shows an entry with the list entry for it', async () => {
    const { runner } = main;
    const added = await runner.run(['add', 'books', '--title', 'Dune', '--year', '1965', '--status', 'watching', '--score', '8', '--json']);
    expectExit(added, EXIT.ok);
    const id = added.json<ListEntry>().item_id;

    const search = await runner.run(['search', 'books', 'dun', '--year', '1965', '--json']);
    expectExit(search, EXIT.ok);
    expect(search.json()).toMatchObject({ data: [{ id, title: 'Dune', year: 1965 }], total: 1, page: 1 });
    const none = await runner.run(['search', 'books', 'dune', '--year', '1966']);
    expectExit(none, EXIT.ok);
    expect(none.stdout).toBe('No entries found.\n');

    const show = await runner.run(['show', 'books', id, '--json']);
    expectExit(show, EXIT.ok);
    expect(show.json()).toMatchObject({ entry: { id, title: 'Dune', authors: [], isbn: null }, list_entry: { item_id: id, status: 'watching', score: 8 } });
    const text = await runner.run(['show', 'books', id]);
    expect(text.stdout).toContain('Dune (1965)');
    expect(text.stdout).toContain('On your list: Reading, score 8, started ');

    // Without a login the catalog is still public; the list part is empty.
    const anonymous = await newRunner().run(['show', 'books', id, '--json']);
    expectExit(anonymous, EXIT.ok);
    expect(anonymous.json()).toMatchObject({ entry: { id }, list_entry: null });
  });

  it('whoami shows the user and the credential, never the token', async () => {
    const { runner, user } = main;
    const whoami = await runner.run(['whoami']);
    expectExit(whoami, EXIT.ok);
    expect(whoami.stdout).toContain(`as ${user.username} <${user.email}>`);
    expect(whoami.stdout).toContain('profile:read catalog:write list:read list:write');
  });
});

describe('adding', () => {
  it('reports an existing catalog duplicate with its id and adds that entry', async () => {
    const { runner } = main;
    const first = await runner.run(['add', 'tvshows', '--title', 'Twin Peaks', '--year', '1990', '--json']);
    expectExit(first, EXIT.ok);
    const id = first.json<ListEntry>().item_id;
    expect(first.stderr).toContain(`Created "Twin Peaks" (1990) in the tvshows catalog: ${id}`);

    const { runner: other } = await loggedIn('dupe2');
    const second = await other.run(['add', 'tvshows', '--title', 'TWIN PEAKS', '--year', '1990', '--json']);
    expectExit(second, EXIT.ok);
    // Searching first, it names the entry the catalog holds, not the spelling typed.
    expect(second.stderr).toContain(`Found "Twin Peaks" (1990) in the tvshows catalog: ${id}`);
    expect(second.json<ListEntry>().item_id).toBe(id);
  });

  it('refuses an entry already on the list with the conflict code and its id', async () => {
    const { runner } = main;
    const first = await runner.run(['add', 'movies', '--title', 'Heat', '--year', '1995', '--json']);
    const id = first.json<ListEntry>().item_id;
    const again = await runner.run(['add', 'movies', id, '--json']);
    expectExit(again, EXIT.conflict);
    expect(again.stdout).toBe('');
    expect(again.errorJson().error).toMatchObject({ exit_code: EXIT.conflict, existing_id: id, message: `already on your movies list: ${id}` });
    const text = await runner.run(['add', 'movies', id]);
    expectExit(text, EXIT.conflict);
    expect(text.stderr).toContain(`mt: already on your movies list: ${id}`);
  });

  it('reports an unknown catalog entry with the not-found code, the API message and the request id', async () => {
    const { runner } = main;
    const result = await runner.run(['add', 'movies', '65f1c0ffee0000000000abcd']);
    expectExit(result, EXIT.notFound);
    expect(result.stderr).toMatch(/^mt: .+\n {4}\(HTTP 404, not_found, request id [0-9a-f-]{36}\)\n/);
    const json = await runner.run(['add', 'movies', '65f1c0ffee0000000000abcd', '--json']);
    expect(json.errorJson().error).toMatchObject({ status: 404, code: 'not_found', exit_code: EXIT.notFound, request_id: expect.any(String) });
  });
});

describe('many entries', () => {
  let runner: MtRunner;
  let ids: string[];
  let api: ApiClient;

  beforeAll(async () => {
    const user = await registerUser(cli.url, 'bulk');
    secrets.add(user.password);
    api = await clientFor(cli.url, user);
    ids = await seedList(api, 'movies', 520, 'Bulk movie');
    runner = newRunner();
    expectExit(await runner.run(['login', '-u', user.username, '--password-stdin'], { input: user.password }), EXIT.ok);
    secrets.add(storedCredential(runner).token);
  }, 240_000);

  it('lists every entry with --all, over pages', async () => {
    const all = await runner.run(['list', 'movies', '--all', '--sort', 'title', '--json']);
    expectExit(all, EXIT.ok);
    const result = all.json<{ data: ListEntry[]; total: number }>();
    expect(result.total).toBe(520);
    expect(new Set(result.data.map((entry) => entry.item_id))).toEqual(new Set(ids));
    expect(result.data[0]?.item.title).toBe('Bulk movie 0000');
    expect(result.data[519]?.item.title).toBe('Bulk movie 0519');

    const smallPages = await runner.run(['list', 'movies', '--all', '--limit', '40', '--status', 'plan_to_watch']);
    expectExit(smallPages, EXIT.ok);
    expect(smallPages.stdout.trim().split('\n')).toHaveLength(520);

    const onePage = await runner.run(['list', 'movies', '--limit', '5', '--page', '2', '--sort', 'title', '--json']);
    expect(onePage.json<ListEntryPage>()).toMatchObject({ page: 2, limit: 5, total: 520, total_pages: 104, data: [{ item: { title: 'Bulk movie 0005' } }, {}, {}, {}, {}] });
  });

  it('changes the status of more than 500 entries read from stdin, in batches, and reports the ids not on the list', async () => {
    const stranger = '65f1c0ffee0000000000abcd';
    const input = [...ids, stranger].join('\n');
    const set = await runner.run(['set', 'movies', '-', '--status', 'completed', '--json'], { input });
    expectExit(set, EXIT.notFound);
    expect(set.json()).toEqual({ updated: 520, not_found: [stranger] });
    expect(set.stderr).toContain(`not on your list: ${stranger}`);
    const completed = await api.listEntries('movies', { status: 'completed', limit: 1 });
    expect(completed.total).toBe(520);
  });

  it('removes more than 500 entries in batches', async () => {
    const removed = await runner.run(['rm', 'movies', ...ids.slice(0, 10), '--json']);
    expectExit(removed, EXIT.ok);
    expect(removed.json()).toEqual({ deleted: 10, not_found: [] });
    const rest = await runner.run(['rm', 'movies', '-'], { input: ids.join(' ') });
    expectExit(rest, EXIT.notFound);
    expect(rest.stdout).toBe('Removed 510 entries.\n');
    expect((await api.listEntries('movies', { limit: 1 })).total).toBe(0);
  });
});

describe('tokens', () => {
  it('lists, creates and revokes tokens with the password for the account scope', async () => {
    const { runner, user } = await loggedIn('tokens');
    const withoutPassword = await runner.run(['tokens', 'ls']);
    expectExit(withoutPassword, EXIT.auth);
    expect(withoutPassword.stderr).toContain('needs the account scope');

    const created = await runner.run(['tokens', 'create', 'nightly', '--scopes', 'list:read', '--expires-in-days', '7', '--password-stdin'], { input: user.password });
    expectExit(created, EXIT.ok);
    const token = created.stdout.trim();
    secrets.add(token);
    expect(token).toMatch(/^mtp_[0-9A-Za-z]{38}$/);
    expect(created.stderr).toContain('Token "nightly" (list:read) expires');

    const list = await runner.run(['tokens', 'ls', '--password-stdin', '--json'], { input: user.password });
    expectExit(list, EXIT.ok);
    const tokens = list.json<TokenMetadata[]>();
    expect(tokens.map((item) => item.name)).toEqual(['nightly', expect.stringMatching(/^mt on /)]);
    const nightly = tokens[0] as TokenMetadata;
    expect(nightly).toMatchObject({ prefix: token.slice(0, 8), scopes: ['list:read'] });

    // The new token works for what its scope allows, and only that.
    expectExit(await runner.run(['list', 'movies'], { env: { MT_TOKEN: token } }), EXIT.ok);
    const write = await runner.run(['add', 'movies', '65f1c0ffee0000000000abcd'], { env: { MT_TOKEN: token } });
    expectExit(write, EXIT.auth);
    expect(write.stderr).toContain('HTTP 403, forbidden');

    const revoke = await runner.run(['tokens', 'revoke', nightly.id, '--password-stdin', '--json'], { input: user.password });
    expectExit(revoke, EXIT.ok);
    expect(revoke.json()).toEqual({ id: nightly.id, revoked: true, logged_out: false });
    expectExit(await runner.run(['list', 'movies'], { env: { MT_TOKEN: token } }), EXIT.auth);
    const again = await runner.run(['tokens', 'revoke', nightly.id, '--password-stdin'], { input: user.password });
    expectExit(again, EXIT.notFound);
  });

  it('uses a stored token that has the account scope without asking, and logs out when it revokes itself', async () => {
    const user = await registerUser(cli.url, 'acct');
    secrets.add(user.password);
    const runner = newRunner();
    const login = await runner.run(['login', '-u', user.username, '--password-stdin', '--scopes', 'account,list:read'], { input: user.password });
    expectExit(login, EXIT.ok);
    const own = storedCredential(runner);
    secrets.add(own.token);
    const list = await runner.run(['tokens', 'ls', '--json']);
    expectExit(list, EXIT.ok);
    expect(list.json<TokenMetadata[]>().map((token) => token.id)).toEqual([own.token_id]);
    const revoke = await runner.run(['tokens', 'revoke', own.token_id]);
    expectExit(revoke, EXIT.ok);
    expect(revoke.stdout).toContain('you are logged out');
    expectExit(await runner.run(['whoami']), EXIT.auth);
  });

  it('replaces the token on a second login and revokes the first', async () => {
    const { runner, user } = await loggedIn('relogin');
    const first = storedCredential(runner);
    const second = await runner.run(['login', '-u', user.username, '--password-stdin', '--json'], { input: user.password });
    expectExit(second, EXIT.ok);
    expect(second.json()).toMatchObject({ previous_token_revoked: true });
    secrets.add(storedCredential(runner).token);
    expectExit(await runner.run(['whoami'], { env: { MT_TOKEN: first.token } }), EXIT.auth);
    expectExit(await runner.run(['whoami']), EXIT.ok);
  });
});

describe('concurrent logins', () => {
  it('keep the credentials of both servers when two logins write the config at the same moment', async () => {
    // Two spellings of the stack's address are two servers to mt, each with its own stored token.
    const other = cli.url.replace('127.0.0.1', 'localhost');
    const user = await registerUser(cli.url, 'race');
    secrets.add(user.password);
    // The config store's own race test (src/config/settings.int.spec.ts) hammers the lock; this is the real flow.
    for (let trial = 0; trial < 2; trial += 1) {
      const runner = newRunner();
      const [a, b] = await Promise.all([
        runner.run(['login', '-u', user.username, '--password-stdin'], { input: user.password }),
        runner.run(['login', '-u', user.username, '--password-stdin', '--url', other], { input: user.password }),
      ]);
      expectExit(a, EXIT.ok);
      expectExit(b, EXIT.ok);
      const servers = JSON.parse(readFileSync(path.join(runner.configDir, 'credentials.json'), 'utf8')).servers as Record<string, { token: string }>;
      for (const credential of Object.values(servers)) secrets.add(credential.token);
      expect({ trial, servers: Object.keys(servers).sort() }).toEqual({ trial, servers: [cli.url, other].sort() });
    }
  });
});

describe('errors and exit codes', () => {
  it('exits with the usage code on bad arguments, before any request', async () => {
    const runner = newRunner();
    const cases: Array<[string[], string]> = [
      [['list', 'movies', '--status', 'finished'], "unknown status 'finished' for movies: one of watching (Watching), completed (Watched)"],
      [['add', 'movies', '--score', '11', '65f1c0ffee0000000000abcd'], 'expected a whole number from 1 to 10'],
      [['set', 'movies', 'not-an-id', '--status', 'completed'], 'not an entry id'],
      [['set', 'movies', '65f1c0ffee0000000000abcd'], 'nothing to change'],
      [['frobnicate'], "unknown command 'frobnicate'"],
      [['--url', 'ftp://example.com', 'categories'], 'only http and https URLs'],
    ];
    for (const [args, message] of cases) {
      const result = await runner.run(args, { env: { MT_TOKEN: 'mtp_notreallyatokenbutwellformedenough00000' } });
      expect({ args, code: result.code }).toEqual({ args, code: EXIT.usage });
      expect(result.stderr).toContain(message);
    }
    const noUsername = await runner.run(['login', '--password-stdin'], { input: 'secret' });
    expectExit(noUsername, EXIT.usage);
    expect(noUsername.stderr).toContain('--password-stdin needs --username');
    const overridden = await runner.run(['login'], { env: { MT_TOKEN: 'mtp_notreallyatokenbutwellformedenough00000' } });
    expectExit(overridden, EXIT.usage);
    expect(overridden.stderr).toContain('MT_TOKEN is set');
    const noTerminal = await runner.run(['login']);
    expectExit(noTerminal, EXIT.usage);
    expect(noTerminal.stderr).toContain('no terminal to ask for username on');
  });

  it('exits with the auth code when not logged in, or with a token the server refuses', async () => {
    const runner = newRunner();
    const notLoggedIn = await runner.run(['list', 'movies', '--json']);
    expectExit(notLoggedIn, EXIT.auth);
    expect(notLoggedIn.errorJson()).toEqual({ error: { message: `not logged in to ${cli.url}`, exit_code: EXIT.auth, hint: 'run `mt login` (or set MT_TOKEN)' } });
    const forged = await runner.run(['whoami'], { env: { MT_TOKEN: 'mtp_00000000000000000000000000000000000000' } });
    expectExit(forged, EXIT.auth);
    const login = await runner.run(['login', '-u', 'nobody_here', '--password-stdin'], { input: 'wrong password' });
    expectExit(login, EXIT.auth);
    expect(login.stderr).toContain('HTTP 401, unauthorized');
  });

  it('exits with the server code when the server cannot be reached', async () => {
    const runner = newRunner();
    const down = await runner.run(['categories'], { env: { MT_URL: `http://127.0.0.1:${await closedPort()}` } });
    expectExit(down, EXIT.server);
    expect(down.stderr).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
  });

  it('gives --help with an example for every command', async () => {
    const runner = newRunner();
    const commands = [[], ['login'], ['logout'], ['whoami'], ['categories'], ['search'], ['show'], ['list'], ['add'], ['set'], ['rm'], ['tokens'], ['tokens', 'ls'], ['tokens', 'create'], ['tokens', 'revoke'], ['import'], ['imports'], ['export'], ['stats'], ['history'], ['sync'], ['catalog'], ['catalog', 'rm'], ['catalog', 'merge'], ['role'], ['completion']];
    for (const command of commands) {
      const help = await runner.run([...command, '--help']);
      expect({ command, code: help.code }).toEqual({ command, code: 0 });
      expect(help.stdout).toMatch(/\nExamples?:\n {2}\$ .*\bmt /);
    }
  });
});

describe('shell completion', () => {
  let bin: string;
  afterAll(() => rmSync(bin, { recursive: true, force: true }));
  beforeAll(() => {
    bin = mkdtempSync(path.join(os.tmpdir(), 'mt-bin-'));
    writeFileSync(path.join(bin, 'mt'), `#!/bin/sh\nexec "${process.execPath}" "${MT_MAIN}" "$@"\n`);
    chmodSync(path.join(bin, 'mt'), 0o755);
  });

  const bashComplete = (runner: MtRunner, words: string[]) => {
    const script = `source <(mt completion bash); COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _mt_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const run = spawnSync('bash', ['-c', script], { env: { ...runner.env(), PATH: `${bin}:${process.env['PATH']}` }, encoding: 'utf8', timeout: 30_000 });
    return run.stdout.split('\n').filter(Boolean);
  };

  it('completes commands, options, option values and the server\'s categories in bash', () => {
    const runner = newRunner();
    expect(bashComplete(runner, ['mt', 'l'])).toEqual(['login', 'logout', 'list']);
    expect(bashComplete(runner, ['mt', 'tokens', ''])).toEqual(['ls', 'create', 'revoke']);
    expect(bashComplete(runner, ['mt', 'list', 'mo'])).toEqual(['movies']);
    expect(bashComplete(runner, ['mt', 'list', 'movies', '--st'])).toEqual(['--status']);
    expect(bashComplete(runner, ['mt', 'list', 'movies', '--status', 'o'])).toEqual(['on_hold']);
    expect(bashComplete(runner, ['mt', 'completion', ''])).toEqual(['bash', 'zsh']);
  });

  const zsh = spawnSync('zsh', ['--version']).status === 0;
  (zsh ? it : it.skip)('defines the zsh completion function, which completes the same way', () => {
    const runner = newRunner();
    const run = spawnSync('zsh', ['-f', '-c', 'autoload -U compinit && compinit -u -D && source <(mt completion zsh) && whence -w _mt && mt __complete list mo'], {
      env: { ...runner.env(), PATH: `${bin}:${process.env['PATH']}` },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toBe('_mt: function\nmovies\n');
  });
});

describe('import', () => {
  it('uploads a file, follows the job to its report with the failed rows, and lists the jobs', async () => {
    const { runner } = await loggedIn('importer');
    const tag = Math.random().toString(36).slice(2, 8);
    const file = path.join(runner.home, 'movies.json');
    writeFileSync(
      file,
      JSON.stringify({
        format: 'media-tracker/list@1',
        category: 'movies',
        exported_at: new Date().toISOString(),
        entries: [
          { item: { title: `Imported ${tag} One`, year: 2001 }, status: 'completed', score: 8 },
          { item: { title: `Imported ${tag} Two`, year: 2002 }, status: 'watching' },
          { item: 'not an entry', status: 'completed' },
        ],
      }),
    );

    const dryRun = await runner.run(['import', 'movies', 'media-tracker', file, '--dry-run', '--json']);
    expectExit(dryRun, EXIT.ok);
    expect(dryRun.json()).toMatchObject({ status: 'completed', dry_run: true, source: 'media-tracker', counts: { rows: 3, added: 2, failed: 1 }, errors: [{ row: 3 }] });
    expect(dryRun.stderr).toBe(''); // no progress bar without a terminal
    const empty = await runner.run(['list', 'movies', '--json']);
    expect(empty.json<ListEntryPage>().total).toBe(0);

    const real = await runner.run(['import', 'movies', 'media-tracker', file]);
    expectExit(real, EXIT.ok);
    expect(real.stdout).toMatch(/: completed, 3 rows\n/);
    expect(real.stdout).toContain('added 2,');
    expect(real.stdout).toMatch(/Rows that failed:\n {2}row 3: \S/);
    const list = await runner.run(['list', 'movies', '--json', '--sort', 'title', '--order', 'asc']);
    expect(list.json<ListEntryPage>().data.map((entry) => [entry.item.title, entry.status, entry.score])).toEqual([
      [`Imported ${tag} One`, 'completed', 8],
      [`Imported ${tag} Two`, 'watching', null],
    ]);

    const again = await runner.run(['import', 'movies', 'media-tracker', file, '--mode', 'overwrite', '--json']);
    expectExit(again, EXIT.ok);
    expect(again.json()).toMatchObject({ mode: 'overwrite', counts: { added: 0, unchanged: 2, failed: 1 } });

    // On a terminal, a progress bar on stderr while the job runs, then the report.
    const tty = runInPty(['import', 'movies', 'media-tracker', file, '--dry-run'], { env: runner.env({ TERM: 'xterm', NO_COLOR: '1' }), cwd: runner.home });
    expect(tty.exit_code).toBe(EXIT.ok);
    expect(tty.output).toMatch(/importing \[[# ]{30}\] (queued|\d+\/3 rows)/);
    expect(tty.output).toContain('dry run: nothing was changed): completed, 3 rows');

    const jobs = await runner.run(['imports', 'movies', '--json']);
    expectExit(jobs, EXIT.ok);
    expect(jobs.json<{ data: Array<{ mode: string; dry_run: boolean }> }>().data.map((job) => [job.mode, job.dry_run])).toEqual([
      ['skip_existing', true],
      ['overwrite', false],
      ['skip_existing', false],
      ['skip_existing', true],
    ]);
    const all = await runner.run(['imports', 'movies', '--all', '--limit', '2', '--json']);
    expect(all.json<{ total: number }>().total).toBe(4);
    const table = await runner.run(['imports', 'movies']);
    expect(table.stdout.split('\n').filter(Boolean).map((line) => line.split('\t').slice(1, 3))).toEqual([
      ['media-tracker (dry run)', 'completed'],
      ['media-tracker', 'completed'],
      ['media-tracker', 'completed'],
      ['media-tracker (dry run)', 'completed'],
    ]);

    // A file the source cannot read is refused before any job exists: the API's message, the usage code.
    writeFileSync(path.join(runner.home, 'broken.json'), '{"format": "something else", "entries": []}');
    const broken = await runner.run(['import', 'movies', 'media-tracker', path.join(runner.home, 'broken.json')]);
    expectExit(broken, EXIT.usage);
    expect(broken.stderr).toMatch(/not a media-tracker export[\s\S]*HTTP 400, \w+, request id \S+/);
    expectExit(await runner.run(['import', 'movies', 'myspace', file]), EXIT.usage);
    expectExit(await runner.run(['import', 'movies', 'csv', path.join(runner.home, 'missing.csv')]), EXIT.usage);
  });
});

describe('export', () => {
  it('streams a list to standard output or a file, and every category into a directory', async () => {
    const { runner, user } = await loggedIn('exporter');
    const api = await clientFor(cli.url, user);
    await seedList(api, 'books', 3, `Exported ${Math.random().toString(36).slice(2, 8)}`);

    const stdout = await runner.run(['export', 'books']);
    expectExit(stdout, EXIT.ok);
    const file = JSON.parse(stdout.stdout) as { format: string; category: string; entries: Array<{ item: { title: string }; status: string }> };
    expect(file).toMatchObject({ format: 'media-tracker/list@1', category: 'books' });
    expect(file.entries).toHaveLength(3);

    const csvPath = path.join(runner.home, 'books.csv');
    const csv = await runner.run(['export', 'books', '--format', 'csv', '-o', csvPath, '--json']);
    expectExit(csv, EXIT.ok);
    expect(csv.json()).toEqual({ files: [{ category: 'books', format: 'csv', path: csvPath, bytes: statSync(csvPath).size }] });
    expect(readFileSync(csvPath, 'utf8').trimEnd().split('\r\n')).toHaveLength(4); // the header and three rows

    const dir = path.join(runner.home, 'backup');
    const all = await runner.run(['export', '--all', '-o', dir]);
    expectExit(all, EXIT.ok);
    const written = readdirSync(dir).sort();
    expect(written.map((name) => name.replace(/-list-\d{4}-\d{2}-\d{2}\.json$/, ''))).toEqual(['books', 'movies', 'tvshows']);
    expect(all.stdout).toContain(`Wrote your books list to ${path.join(dir, written[0] as string)}`);
    const books = JSON.parse(readFileSync(path.join(dir, written[0] as string), 'utf8')) as typeof file;
    expect(books.entries.map((entry) => entry.item.title).sort()).toEqual(file.entries.map((entry) => entry.item.title).sort());

    // What mt export writes, mt import reads back: every row matches its entry, and nothing changes.
    const back = await runner.run(['import', 'books', 'csv', csvPath, '--json']);
    expectExit(back, EXIT.ok);
    expect(back.json()).toMatchObject({ status: 'completed', counts: { rows: 3, matched: 3, unchanged: 3, added: 0, failed: 0 } });

    expectExit(await runner.run(['export', '--all']), EXIT.usage);
    expectExit(await runner.run(['export']), EXIT.usage);
    expectExit(await runner.run(['export', 'books', '-o', path.join(runner.home, 'no', 'such', 'dir', 'x.json')]), 1);
  });
});

describe('statistics and history', () => {
  it('summarises every category, details one, and shows how an entry changed', async () => {
    const { runner, user } = await loggedIn('stats');
    const api = await clientFor(cli.url, user);
    const [done, going] = await seedList(api, 'movies', 3, `Counted ${Math.random().toString(36).slice(2, 8)}`);
    await api.updateListEntry('movies', done as string, { status: 'completed', score: 8, progress: 100, finished_at: '2025-03-01' });
    await api.updateListEntry('movies', going as string, { status: 'watching', score: 6, progress: 30 });

    const one = await runner.run(['stats', 'movies', '--json']);
    expectExit(one, EXIT.ok);
    expect(one.json()).toMatchObject({
      total: 3,
      by_status: { completed: 1, watching: 1, plan_to_watch: 1, on_hold: 0, dropped: 0 },
      mean_score: 7,
      progress_total: 130,
      completed_by_year: { '2025': 1 },
    });
    const text = await runner.run(['stats', 'movies']);
    expectExit(text, EXIT.ok);
    expect(text.stdout).toContain('Movies: 3 entries\n');
    expect(text.stdout).toContain('Mean score: 7.0\n');
    expect(text.stdout).toContain('Progress: 130 minutes\n');
    expect(text.stdout).toContain('Completed by year:\n  2025  1\n');

    const all = await runner.run(['stats', '--json']);
    expectExit(all, EXIT.ok);
    const rows = all.json<Array<{ category: string; stats: { total: number } }>>();
    expect(rows.map((row) => [row.category, row.stats.total])).toEqual([
      ['books', 0],
      ['movies', 3],
      ['tvshows', 0],
    ]);
    const summary = await runner.run(['stats']);
    expect(summary.stdout.split('\n')).toContain('movies\t3\t1\t1\t0\t0\t1\t7.0\t130 minutes');

    await api.updateListEntry('movies', going as string, { status: 'completed', score: 9 });
    const history = await runner.run(['history', 'movies', going as string, '--json']);
    expectExit(history, EXIT.ok);
    const events = history.json<Array<{ field: string; from: unknown; to: unknown }>>();
    expect(events).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'status', from: 'watching', to: 'completed' }),
      expect.objectContaining({ field: 'score', from: 6, to: 9 }),
    ]));
    const historyText = await runner.run(['history', 'movies', going as string]);
    expect(historyText.stdout).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\tscore\t6\t9$/m);
    expectExit(await runner.run(['history', 'movies', 'nope']), EXIT.usage);
    expectExit(await runner.run(['history', 'movies', '65f1c0ffee0000000000abcd']), EXIT.notFound);
  });
});

describe('sync', () => {
  it('keeps a local copy equal to the list: a full read first, then only the changes, and a full read again when the position expired', async () => {
    const { runner, user } = await loggedIn('syncer');
    const api = await clientFor(cli.url, user);
    const label = `Synced ${Math.random().toString(36).slice(2, 8)}`;
    const ids = await seedList(api, 'tvshows', 4, label);
    const dir = path.join(runner.home, 'copy');
    const file = path.join(dir, 'tvshows.json');
    const copy = () => JSON.parse(readFileSync(file, 'utf8')) as { format: string; server: string; next_since: string; entries: ListEntry[] };
    const listed = async () => {
      const all = await runner.run(['list', 'tvshows', '--all', '--json']);
      expectExit(all, EXIT.ok);
      return all.json<{ data: ListEntry[] }>().data.sort((a, b) => a.item_id.localeCompare(b.item_id));
    };

    const first = await runner.run(['sync', 'tvshows', dir, '--json']);
    expectExit(first, EXIT.ok);
    expect(first.json()).toEqual({ category: 'tvshows', file, read: 'full', restarted: false, upserted: 4, deleted: 0, total: 4, plays_added: 0, plays_deleted: 0, plays: 0 });
    expect(copy()).toMatchObject({ format: 'media-tracker/sync@1', server: cli.url });
    expect(copy().entries).toEqual(await listed());

    await seedList(api, 'tvshows', 1, `${label} later`);
    await api.updateListEntry('tvshows', ids[0] as string, { status: 'completed', score: 7 });
    await api.removeListEntry('tvshows', ids[1] as string);
    const second = await runner.run(['sync', 'tvshows', dir]);
    expectExit(second, EXIT.ok);
    expect(second.stdout).toBe(`Synced ${file}: 2 added or changed, 1 removed; 4 entries.\n`);
    expect(copy().entries).toEqual(await listed());
    expect(readdirSync(dir)).toEqual(['tvshows.json']); // no temporary file left behind

    const quiet = await runner.run(['sync', 'tvshows', dir, '--json']);
    expect(quiet.json()).toMatchObject({ read: 'changes', upserted: 0, deleted: 0, total: 4 });

    // A position older than the feed keeps removals (the feed's documented encoding, 100 days back): the
    // whole list is read again, and an entry the copy still had is gone.
    const stale = copy();
    stale.next_since = Buffer.from(`f1:1::${Date.now() - 100 * 86_400_000}`).toString('base64url');
    stale.entries.push({ ...(stale.entries[0] as ListEntry), item_id: '65f1c0ffee0000000000abcd' });
    writeFileSync(file, JSON.stringify(stale));
    const expired = await runner.run(['sync', 'tvshows', dir, '--json']);
    expectExit(expired, EXIT.ok);
    expect(expired.json()).toMatchObject({ read: 'full', restarted: true, total: 4 });
    expect(expired.stderr).toContain('reading the whole list again');
    expect(copy().entries).toEqual(await listed());

    writeFileSync(path.join(runner.home, 'books.json'), '{"not": "a copy"}');
    const foreign = await runner.run(['sync', 'books', runner.home]);
    expectExit(foreign, 1);
    expect(foreign.stderr).toContain('is not a copy made by mt sync');
  });
});

describe('moderation', () => {
  const MODERATOR_SCOPES = 'catalog:write,list:read,list:write,profile:read,catalog:moderate';

  it('lets an admin make a moderator, who merges a duplicate and removes an entry with the list entries on it', async () => {
    const admin = await loggedIn('admin', { username: ADMIN, scopes: `${MODERATOR_SCOPES},account` });
    const candidate = await loggedIn('moderator');
    // Not a moderator yet: the catalog commands are refused with the auth code and the API's message.
    const entry = (await (await clientFor(cli.url, candidate.user)).createEntry('movies', { title: `Doubled ${Math.random().toString(36).slice(2, 8)}`, year: 1990 })).id;
    const refused = await candidate.runner.run(['catalog', 'rm', 'movies', entry]);
    expectExit(refused, EXIT.auth);
    expect(refused.stderr).toMatch(/catalog:moderate[\s\S]*HTTP 403, forbidden, request id \S+/);
    const notAdmin = await candidate.runner.run(['role', candidate.user.id, 'moderator', '--password-stdin'], { input: candidate.user.password });
    expectExit(notAdmin, EXIT.auth);

    const granted = await admin.runner.run(['role', candidate.user.id, 'moderator', '--json']);
    expectExit(granted, EXIT.ok);
    expect(granted.json()).toMatchObject({ id: candidate.user.id, username: candidate.user.username, role: 'moderator' });
    const relogin = await candidate.runner.run(['login', '-u', candidate.user.username, '--password-stdin', '--scopes', MODERATOR_SCOPES], { input: candidate.user.password });
    expectExit(relogin, EXIT.ok);
    secrets.add(storedCredential(candidate.runner).token);

    // A duplicate on a user's list is merged into the survivor: the list entry moves with it.
    const api = await clientFor(cli.url, main.user);
    const survivor = await api.createEntry('movies', { title: `Survivor ${Math.random().toString(36).slice(2, 8)}`, year: 1991 });
    await api.addListEntry('movies', { item_id: entry, status: 'completed', score: 7 });
    const merged = await candidate.runner.run(['catalog', 'merge', 'movies', entry, '--into', survivor.id, '--json']);
    expectExit(merged, EXIT.ok);
    expect(merged.json()).toMatchObject({ id: survivor.id, title: survivor.title });
    expect(await api.getListEntry('movies', survivor.id)).toMatchObject({ status: 'completed', score: 7 });
    expectExit(await candidate.runner.run(['catalog', 'merge', 'movies', survivor.id, '--into', survivor.id]), EXIT.usage);

    const removed = await candidate.runner.run(['catalog', 'rm', 'movies', survivor.id]);
    expectExit(removed, EXIT.ok);
    expect(removed.stdout).toBe(`Removed ${survivor.id} from the movies catalog, and 1 list entry with it.\n`);
    expectExit(await main.runner.run(['show', 'movies', survivor.id]), EXIT.notFound);
    expectExit(await candidate.runner.run(['catalog', 'rm', 'movies', survivor.id]), EXIT.notFound);

    const revoked = await admin.runner.run(['role', candidate.user.id, 'user']);
    expectExit(revoked, EXIT.ok);
    expect(revoked.stdout).toBe(`${candidate.user.username} is now a user.\n`);
    const stillToken = await candidate.runner.run(['catalog', 'rm', 'movies', entry]);
    expectExit(stillToken, EXIT.auth);
    expectExit(await admin.runner.run(['role', 'someone', 'moderator']), EXIT.usage);
  });
});

describe('secrets', () => {
  it('never prints a token after its creation, nor a password, in any output, log or other config file', async () => {
    // Everything below was produced by this file's commands; the token of `tokens create` is its one output.
    const { runner } = main;
    const debug = await runner.run(['list', 'movies'], { env: { MT_DEBUG: '1' } });
    expectExit(debug, EXIT.ok);
    expect(debug.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/movies\/list\n< 200 in \d+ ms \(request id \S+\)\n$/);

    expect(secrets.size).toBeGreaterThan(10);
    const leaks: string[] = [];
    for (const r of runners) {
      for (const run of r.runs) {
        const isCreation = run.args[0] === 'tokens' && run.args[1] === 'create';
        for (const secret of secrets) {
          if (run.args.some((arg) => arg.includes(secret))) leaks.push(`argument of mt ${run.args.join(' ')}`);
          if (!isCreation && run.stdout.includes(secret)) leaks.push(`stdout of mt ${run.args.join(' ')}`);
          if (run.stderr.includes(secret)) leaks.push(`stderr of mt ${run.args.join(' ')}`);
        }
      }
      for (const file of listFiles(r.home)) {
        if (file === path.join(r.configDir, 'credentials.json')) continue;
        const content = readFileSync(file, 'utf8');
        for (const secret of secrets) if (content.includes(secret)) leaks.push(file);
      }
    }
    const logs = cli.logs.join('\n');
    for (const secret of secrets) if (logs.includes(secret)) leaks.push('a service log');
    expect(leaks).toEqual([]);
  });
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

describe('the words of the web app, and what people type', () => {
  it('takes the status in the words the web app shows (--status watched) and shows them back', async () => {
    const { runner } = await loggedIn('words');
    const added = await runner.run(['add', 'movies', '--title', `Words ${Date.now()}`, '--year', '2001', '--status', 'watched']);
    expectExit(added, EXIT.ok);
    expect(added.stdout).toContain('Watched');
    const id = added.stdout.trim().split('\n').pop() ?? '';
    const reading = await runner.run(['set', 'movies', id, '--status', 'Want to watch', '--json']);
    expectExit(reading, EXIT.ok);
    const listed = await runner.run(['list', 'movies', '--status', 'want-to-watch', '--json']);
    expect(listed.json<ListEntryPage>().data.map((entry) => [entry.item_id, entry.status])).toEqual([[id, 'plan_to_watch']]);
    const shown = await runner.run(['list', 'movies']);
    expect(shown.stdout.split('\t')).toContain('Want to watch');
    const unknown = await runner.run(['set', 'movies', id, '--status', 'binged']);
    expectExit(unknown, EXIT.usage);
    expect(unknown.stderr).toContain("unknown status 'binged' for movies: one of watching (Watching), completed (Watched)");
  });

  it('names the categories when the one given does not exist', async () => {
    const result = await newRunner().run(['search', 'film', 'x']);
    expectExit(result, EXIT.usage);
    expect(result.stderr).toContain("unknown category 'film': the categories are books, movies, tvshows");
    expect(result.stderr).not.toContain('no route');
  });

  it('revokes a token by its name, and lists long names whole on a terminal', async () => {
    const { runner, user } = await loggedIn('revoker');
    const name = 'the nightly backup of my lists to the NAS';
    expectExit(await runner.run(['tokens', 'create', name, '--scopes', 'list:read', '--password-stdin'], { input: user.password }), EXIT.ok);
    const table = runInPty(['tokens', 'ls'], { env: runner.env({ TERM: 'xterm', NO_COLOR: '1' }), cwd: runner.home, columns: 80, script: [['Password for', `${user.password}\r`]] });
    expect(table.output).toContain(name);
    const revoke = await runner.run(['tokens', 'revoke', name, '--password-stdin'], { input: user.password });
    expectExit(revoke, EXIT.ok);
    expect(revoke.stdout).toContain(`Token "${name}"`);
    const again = await runner.run(['tokens', 'revoke', name, '--password-stdin'], { input: user.password });
    expectExit(again, EXIT.notFound);
  });

  it("imports a Letterboxd file under any name with --file-kind, and says a refusal once", async () => {
    const { runner } = await loggedIn('boxd');
    const file = path.join(runner.home, 'letterboxd.csv');
    writeFileSync(file, 'Date,Name,Year,Letterboxd URI\n2024-01-02,Heat,1995,https://boxd.it/abc\n');
    const refused = await runner.run(['import', 'movies', 'letterboxd', file, '--dry-run']);
    expectExit(refused, EXIT.usage);
    const sentence = "give the file's name (watched.csv or watchlist.csv)";
    expect(refused.stderr.split(sentence).length - 1).toBe(1);
    const imported = await runner.run(['import', 'movies', 'letterboxd', file, '--file-kind', 'watchlist.csv', '--dry-run', '--json']);
    expectExit(imported, EXIT.ok);
    expect(imported.json<{ status: string; file_name: string }>()).toMatchObject({ status: 'completed', file_name: 'watchlist.csv' });
  });
});
