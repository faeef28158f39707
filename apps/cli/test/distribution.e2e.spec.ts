// What ships and what keeps it honest, against one started stack (real stores) with a low rate limit:
// - the client-drift test: the API client regenerated from the served document equals the checked-in one;
// - `npm pack` of the built CLI installed with `npm i -g` into a temporary prefix is a working `mt`, with no
//   workspace around it;
// - Retry-After honoured: `mt` waits out a rate limit with a notice, or stops at once past --max-wait.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { registerUser, type TestUser } from './support/api';
import { startCliStack, type CliStack } from './support/cli-stack';
import { MtRunner, WORKSPACE, type MtResult } from './support/run-mt';

const RATE_LIMIT = 40;
let cli: CliStack;
let scratch: string;
const runners: MtRunner[] = [];

beforeAll(async () => {
  cli = await startCliStack('dist', { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });
  scratch = mkdtempSync(path.join(os.tmpdir(), 'mt-dist-'));
}, 180_000);

afterAll(async () => {
  await cli?.stop();
  for (const runner of runners) runner.dispose();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A PAT for `user`, made over HTTP. */
async function patFor(user: TestUser): Promise<string> {
  const login = await fetch(`${cli.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: user.password }),
  }).then((answer) => answer.json() as Promise<{ access_token: string }>);
  const created = await fetch(`${cli.url}/api/v1/auth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${login.access_token}` },
    body: JSON.stringify({ name: 'rate limit test' }),
  }).then((answer) => answer.json() as Promise<{ token: string }>);
  return created.token;
}

/** Spends the token's whole rate-limit window; resolves with the Retry-After of the first 429. */
async function exhaust(token: string): Promise<number> {
  for (let i = 0; i <= RATE_LIMIT * 2; i += 1) {
    const answer = await fetch(`${cli.url}/api/v1/movies/list`, { headers: { authorization: `Bearer ${token}` } });
    await answer.arrayBuffer();
    if (answer.status === 429) return Number(answer.headers.get('retry-after'));
  }
  throw new Error('never rate limited');
}

/** The `mt` that waits out a rate limit: started by the first tests, checked by the last, so its wait overlaps the others. */
let waiting: Promise<{ result: MtResult; elapsedMs: number; retryAfter: number }> | undefined;

/**
 * Exhausts the window and returns its Retry-After, which is at least `margin` seconds: a window about to end
 * could roll over before `mt` asks, so then the next window is exhausted instead.
 */
async function exhaustWithMargin(token: string, margin: number): Promise<number> {
  const retryAfter = await exhaust(token);
  if (retryAfter >= margin) return retryAfter;
  await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 300));
  return exhaust(token);
}

describe('rate limits', () => {
  let runner: MtRunner;
  let token: string;

  beforeAll(async () => {
    runner = new MtRunner(cli.url);
    runners.push(runner);
    token = await patFor(await registerUser(cli.url, 'limited'));
  });

  it('stops at once with the rate-limited code when Retry-After is longer than --max-wait', async () => {
    const retryAfter = await exhaustWithMargin(token, 10);
    const started = Date.now();
    const result = await runner.run(['list', 'movies', '--max-wait', '5'], { env: { MT_TOKEN: token } });
    expect(result.code).toBe(6);
    // It did not wait: no notice, and it ended before the window did.
    expect(result.stderr).not.toContain('waiting');
    expect(Date.now() - started).toBeLessThan(retryAfter * 1000);
    expect(result.stderr).toMatch(/^mt: too many requests\n {4}\(HTTP 429, rate_limited, request id \S+\)\n {4}retry after \d+ s\nhint: wait and try again/);
  });

  it('waits out Retry-After with a notice, then succeeds (started now, checked at the end of the file)', async () => {
    // The wait lasts until the end of the gateway's one-minute window: it runs while the tests below do.
    const retryAfter = await exhaustWithMargin(token, 10);
    const started = Date.now();
    waiting = runner
      .run(['list', 'movies', '--json'], { env: { MT_TOKEN: token, MT_MAX_WAIT: '90' }, timeoutMs: 120_000 })
      .then((result) => ({ result, elapsedMs: Date.now() - started, retryAfter }));
    expect(retryAfter).toBeGreaterThan(0);
  });

});

describe('the API client', () => {
  it('is exactly what openapi-typescript generates from the served document (client drift)', () => {
    const out = path.join(scratch, 'schema.d.ts');
    execFileSync(process.execPath, [path.join(WORKSPACE, 'libs/api-client/generate.mjs'), '--url', cli.url, '--out', out], { cwd: WORKSPACE, stdio: 'pipe', timeout: 120_000 });
    const served = readFileSync(out, 'utf8').split('\n');
    const checkedIn = readFileSync(path.join(WORKSPACE, 'libs/api-client/src/generated/schema.d.ts'), 'utf8').split('\n');
    const line = served.findIndex((text, index) => text !== checkedIn[index]);
    const difference =
      line === -1 && served.length === checkedIn.length
        ? undefined
        : `from line ${line + 1}: served ${JSON.stringify(served[line])}, checked in ${JSON.stringify(checkedIn[line])}; run npm run api-client:generate`;
    expect(difference).toBeUndefined();
    expect(served.length).toBeGreaterThan(1000);
  });
});

describe('the packed CLI', () => {
  it('installs from its tarball into an empty prefix and works with no workspace around', async () => {
    const npm = (args: string[], cwd: string) =>
      spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 180_000, env: { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false' } });
    const packed = npm(['pack', path.join(WORKSPACE, 'dist/apps/cli'), '--pack-destination', scratch, '--json'], scratch);
    expect({ status: packed.status, stderr: packed.status ? packed.stderr : '' }).toEqual({ status: 0, stderr: '' });
    const [tarball] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    expect(tarball?.files.map((file) => file.path).sort()).toEqual(['README.md', 'main.js', 'main.js.map', 'package.json']);

    const prefix = path.join(scratch, 'prefix');
    const installed = npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', path.join(scratch, tarball?.filename ?? '')], scratch);
    expect({ status: installed.status, stderr: installed.status ? installed.stderr : '' }).toEqual({ status: 0, stderr: '' });
    const mt = path.join(prefix, 'bin', 'mt');
    expect(existsSync(mt)).toBe(true);
    const packageDir = path.join(prefix, 'lib', 'node_modules', 'media-tracker-cli');
    const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { bin: object; dependencies: Record<string, string> };
    expect(manifest.bin).toEqual({ mt: 'main.js' });
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['commander', 'openapi-fetch']);
    expect(readdirSync(path.join(packageDir, 'node_modules')).sort()).toEqual(expect.arrayContaining(['commander', 'openapi-fetch']));

    // Run from an empty directory, with only node on PATH: nothing of the workspace is reachable.
    const away = mkdtempSync(path.join(os.tmpdir(), 'mt-away-'));
    const runner = new MtRunner(cli.url, away);
    const only = { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, NODE_PATH: '' };
    const version = await runner.run(['--version'], { bin: mt, env: only });
    expect(version).toMatchObject({ code: 0, stdout: `${JSON.parse(readFileSync(path.join(WORKSPACE, 'package.json'), 'utf8')).version}\n` });
    const categories = await runner.run(['categories', '--json'], { bin: mt, env: only });
    expect(categories.code).toBe(0);
    expect(categories.json<Array<{ id: string }>>().map((category) => category.id)).toEqual(['books', 'movies', 'tvshows']);

    const user = await registerUser(cli.url, 'packed');
    const login = await runner.run(['login', '-u', user.username, '--password-stdin'], { bin: mt, env: only, input: user.password });
    expect(login.code).toBe(0);
    const added = await runner.run(['add', 'movies', '--title', 'Stalker', '--year', '1979', '--json'], { bin: mt, env: only });
    expect(added.code).toBe(0);
    const list = await runner.run(['list', 'movies', '--json'], { bin: mt, env: only });
    expect(list.json()).toMatchObject({ total: 1, data: [{ item: { title: 'Stalker' } }] });
    expect((await runner.run(['logout', '--password-stdin'], { bin: mt, env: only, input: user.password })).code).toBe(0);
    expect((await runner.run(['whoami'], { bin: mt, env: only })).code).toBe(3);
    rmSync(away, { recursive: true, force: true });
  });
});

describe('rate limits, at the end', () => {
  it('waited out Retry-After with a notice and then succeeded', async () => {
    expect(waiting).toBeDefined();
    const { result, elapsedMs, retryAfter } = await (waiting as NonNullable<typeof waiting>);
    expect(result.stderr).toContain(`rate limited by ${new URL(cli.url).host}: waiting `);
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ data: [], total: 0 });
    expect(elapsedMs).toBeGreaterThanOrEqual((retryAfter - 1) * 1000);
  }, 120_000);
});
