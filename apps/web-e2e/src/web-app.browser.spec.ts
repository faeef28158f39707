import type { ApiClient } from '@mt/api-client';
import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { closeOpenPages, launchBrowser, openPage, type WatchedPage } from './support/browser';
import { startWebStack, type WebStack } from './support/web-stack';
import { expectCount, expectText, hidden, textOf, until, visible } from './support/wait';

const FIRST_LOAD_BUDGET = 150 * 1024;
/** Admins by configuration (docs/api.md "Authentication"): one per width, so each run moderates on its own. */
const MODERATORS = { 390: 'webmod390', 1280: 'webmod1280' } as const;
const IMPORT_FIXTURE = path.join(__dirname, 'fixtures', 'movies-with-a-bad-row.csv');
const XSS = '<img src=x onerror="window.__xss=1"></script><script>window.__xss=2</script>';

let web: WebStack;
let browser: Browser;
const movies: Record<string, string> = {};
let run = 0;

const unique = (name: string) => `${name}${Date.now().toString(36)}${(run += 1)}`;

async function registerAndLogin(client: ApiClient, name: string) {
  const username = unique(name);
  const password = 'correct horse battery';
  await client.register({ username, email: `${username}@example.com`, password });
  const login = await client.login({ username, password });
  return { username, password, token: login.access_token, user: login.user };
}

/** The session the app keeps in sessionStorage, as a person's tab would have it. */
const sessionToken = (page: Page) => page.evaluate<string>(`JSON.parse(sessionStorage.getItem('mt.session')).token`);

async function expectAccessible(w: WatchedPage, screen: string) {
  const violations = await w.axe();
  if (violations.length) throw new Error(`${screen}: ${JSON.stringify(violations, null, 2)}`);
}

async function expectCleanPage(w: WatchedPage) {
  expect(await w.cspViolations()).toEqual([]);
  expect(w.errors).toEqual([]);
  const origin = new URL(web.url).origin;
  expect(w.requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
}

beforeAll(async () => {
  [web, browser] = await Promise.all([startWebStack('app', { env: { ADMIN_USERNAMES: Object.values(MODERATORS).join(',') } }), launchBrowser()]);
  const seeder = await registerAndLogin(web.client(), 'seeder');
  const api = web.client(seeder.token);
  for (const [title, year] of [
    ['The Matrix', 1999],
    ['The Matrix Reloaded', 2003],
    ['Heat', 1995],
    ['Alien', 1979],
  ] as const)
    movies[title] = (await api.createEntry('movies', { title, year, genres: ['Action'] })).id;
  movies[XSS] = (await api.createEntry('movies', { title: XSS, year: 2001, description: XSS })).id;
}, 180_000);

afterEach(() => closeOpenPages());

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

describe.each([390, 1280])('the web app at %i px wide', (width) => {
  it('carries a person from registering through search, list, bulk changes and tokens to deleting the account', async () => {
    const w = await openPage(browser, { width, name: `journey-${width}` });
    const { page } = w;
    const username = unique('journey');
    const password = 'a long enough password';

    // Start: a welcome with one search, for someone not signed in.
    await page.goto(`${web.url}/`);
    await visible(page.getByRole('heading', { level: 1, name: 'Media Tracker' }));
    await w.screenshot('start');

    // Register: a field error next to its field first, then the account.
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Register' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Create an account' }));
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email').fill(`${username}@example.com`);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await until(async () => expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true'));
    await visible(page.locator('.field--invalid .field__error'));
    await expectAccessible(w, 'register with an error');
    await w.screenshot('register-error');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Home' }));
    await visible(page.getByText('Nothing on your lists yet.'));
    expect(await page.evaluate('localStorage.length')).toBe(0);
    await expectAccessible(w, 'empty home');

    // Search as you type: a word prefix finds both Matrix films.
    await page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Movies' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Movies' }));
    // Typing, then results arriving: nothing on the page may jump (cumulative layout shift from here).
    await w.resetLayoutShift();
    await page.getByLabel('Search movies').pressSequentially('matr', { delay: 40 });
    await visible(page.getByText('2 movies matching “matr”'));
    await page.waitForURL(/\?q=matr$/);
    const results = page.locator('.cards .card__title');
    await until(async () => expect(await results.allTextContents()).toEqual(['The Matrix', 'The Matrix Reloaded']));
    const shift = await w.layoutShift();
    if (shift.value >= 0.1) throw new Error(`layout shift ${shift.value}: ${shift.shifts.join(' | ')}`);
    await expectAccessible(w, 'search');
    await w.screenshot('search');

    // Add to my list from the entry page.
    await results.first().click();
    await visible(page.getByRole('heading', { level: 1, name: 'The Matrix (1999)' }));
    await page.getByLabel('Status').selectOption({ label: 'Watching' });
    await expectAccessible(w, 'entry');
    await page.getByRole('button', { name: 'Add to my list' }).click();
    await until(async () => expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('watching'));
    await w.screenshot('entry-added');
    for (const title of ['Heat', 'Alien']) {
      await page.getByRole('link', { name: 'Browse' }).click();
      await page.getByLabel('Search movies').fill(title.toLowerCase());
      await page.locator('.cards .card__title', { hasText: title }).click();
      await page.getByRole('button', { name: 'Add to my list' }).click();
      await until(async () => expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('plan_to_watch'));
    }
    const me = web.client(await sessionToken(page));

    // Change one status right in its row.
    await page.getByRole('link', { name: 'My list', exact: true }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'My movies' }));
    await expectCount(page.locator('.list-row'), 3);
    await page.getByLabel('Status of The Matrix', { exact: true }).selectOption({ label: 'Watched' });
    await visible(page.getByRole('status').getByText('“The Matrix” moved to Watched.'));
    const matrix = await me.getListEntry('movies', movies['The Matrix']!);
    expect(matrix).toMatchObject({ status: 'completed', finished_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });

    // Inline edit of score and notes.
    await page.getByRole('button', { name: 'Edit Heat' }).click();
    const editor = page.getByRole('form', { name: 'Edit Heat' });
    await editor.getByLabel('Score').selectOption('8');
    await editor.getByLabel('Notes').fill('Great heist.');
    await expectAccessible(w, 'inline edit');
    await w.screenshot('inline-edit');
    await editor.getByRole('button', { name: 'Save' }).click();
    await hidden(editor);
    await until(async () => expect(await textOf(page.locator('.list-row', { hasText: 'Heat' }))).toContain('8/10'));
    expect(await me.getListEntry('movies', movies['Heat']!)).toMatchObject({ score: 8, notes: 'Great heist.' });

    // Bulk status change of everything, then Undo.
    await page.getByLabel('Select all on this page').check();
    const bar = page.getByRole('region', { name: 'Selected entries' });
    await until(async () => expect(await textOf(bar)).toContain('3 selected'));
    await bar.getByLabel('Set status').selectOption({ label: 'On hold' });
    await expectAccessible(w, 'bulk selection');
    await w.screenshot('bulk-selection');
    await bar.getByRole('button', { name: 'Apply' }).click();
    await visible(page.getByRole('status').getByText('3 entries set to On hold.'));
    const statuses = async () => Object.fromEntries((await me.listEntries('movies', { limit: 100 })).data.map((e) => [e.item.title, e.status]));
    expect(await statuses()).toEqual({ 'The Matrix': 'on_hold', Heat: 'on_hold', Alien: 'on_hold' });
    await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
    await visible(page.getByRole('status').getByText('Statuses restored.'));
    expect(await statuses()).toEqual({ 'The Matrix': 'completed', Heat: 'plan_to_watch', Alien: 'plan_to_watch' });

    // Bulk delete with a confirmation, then Undo puts the entry back as it was.
    await page.getByLabel('Select Heat', { exact: true }).check();
    await bar.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 1 entry?' });
    await visible(dialog);
    await expectAccessible(w, 'delete confirmation');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await visible(page.getByRole('status').getByText('1 entry deleted from your list.'));
    await expectCount(page.locator('.list-row'), 2);
    await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
    await visible(page.getByRole('status').getByText('Entries restored.'));
    await expectCount(page.locator('.list-row'), 3);
    expect(await me.getListEntry('movies', movies['Heat']!)).toMatchObject({ status: 'plan_to_watch', score: 8, notes: 'Great heist.' });

    // Status tabs.
    await page.getByRole('tab', { name: 'Watched' }).click();
    await page.waitForURL(/status=completed/);
    await expectCount(page.locator('.list-row'), 1);
    await page.getByRole('tab', { name: 'All' }).click();
    await expectCount(page.locator('.list-row'), 3);
    await expectAccessible(w, 'list');
    for (const dismiss of await page.getByRole('button', { name: 'Dismiss' }).all()) await dismiss.click();
    await w.screenshot('list');

    // Tokens: created with scopes and expiry, the secret shown once and copied, listed, revoked.
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Tokens' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Access tokens' }));
    await page.getByLabel('Name').fill('journey script');
    await page.getByRole('checkbox', { name: /catalog:write/ }).uncheck();
    await page.getByLabel('Expires after').selectOption({ label: '30 days' });
    await page.getByRole('button', { name: 'Create token' }).click();
    const secretText = page.getByLabel('Token secret');
    await expectText(secretText, /^mtp_[0-9A-Za-z]{38}$/);
    const secret = (await secretText.textContent()) ?? '';
    await page.getByRole('button', { name: 'Copy' }).click();
    await visible(page.getByText('Copied to the clipboard.'));
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await expectAccessible(w, 'token secret');
    await w.screenshot('token-secret');
    expect((await web.client(secret).listEntries('movies')).total).toBe(3);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expectCount(page.getByText(secret), 0);
    const row = page.getByRole('row', { name: /journey script/ });
    await until(async () => expect(await textOf(row)).toContain(secret.slice(0, 8)));
    await until(async () => expect(await textOf(row)).toContain('list:read, list:write'));
    await page.getByRole('button', { name: 'Revoke journey script' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await visible(page.getByText('No active tokens.'));
    await expect(web.client(secret).listEntries('movies')).rejects.toMatchObject({ status: 401 });

    // Delete the account: confirmed by typing the username.
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: new RegExp(username) }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Account' }));
    await expectAccessible(w, 'account');
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete your account?' });
    expect(await confirm.getByRole('button', { name: 'Delete my account' }).isDisabled()).toBe(true);
    await confirm.getByLabel('Username').fill(username);
    await w.screenshot('delete-account');
    await confirm.getByRole('button', { name: 'Delete my account' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Log in' }));
    await visible(page.getByText('Your account has been deleted.'));
    await expectAccessible(w, 'login after deletion');
    expect(await page.evaluate(`sessionStorage.getItem('mt.session')`)).toBeNull();
    await expect(web.client().login({ username, password })).rejects.toMatchObject({ status: 401 });

    await expectCleanPage(w);
    await w.close();
  }, 300_000);
});

describe.each([390, 1280] as const)('the list tools at %i px wide', (width) => {
  it('imports a CSV with a bad row, downloads the export, shows statistics and history, and lets a moderator delete and merge', async () => {
    const api = web.client();
    const username = MODERATORS[width];
    const password = 'a moderator password';
    await api.register({ username, email: `${username}@example.com`, password });
    const seeder = web.client((await registerAndLogin(api, `seed${width}`)).token);
    const duplicate = await seeder.createEntry('movies', { title: `Heat (copy ${width})`, year: 1995 });
    const obsolete = await seeder.createEntry('movies', { title: `Obsolete ${width}`, year: 2000 });
    await seeder.addListEntry('movies', { item_id: obsolete.id, status: 'dropped' });

    const w = await openPage(browser, { width, name: `list-tools-${width}` });
    const { page } = w;
    await page.goto(`${web.url}/login?next=%2Fmovies%2Fimport`);
    await page.getByLabel('Username or email').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Import and export movies' }));

    // Import: a dry run first (nothing changes, the bad row is named), then for real.
    await page.getByLabel('From', { exact: true }).selectOption('csv');
    await page.getByLabel('File', { exact: true }).setInputFiles(IMPORT_FIXTURE);
    await page.getByRole('button', { name: 'Check the file' }).click();
    await visible(page.getByText('Dry run finished: nothing was changed. 1 row would fail.'));
    const failures = page.getByRole('table', { name: 'The row that failed' });
    await expectText(failures.getByRole('rowheader'), '4');
    const me = web.client(await sessionToken(page));
    expect((await me.listEntries('movies')).total).toBe(0);
    await expectAccessible(w, 'dry-run report');
    await w.screenshot('import-dry-run');
    await page.getByRole('button', { name: 'Import it now' }).click();
    await visible(page.getByText('Import finished: 2 added, 0 updated, 1 failed.'));
    await visible(page.getByRole('table', { name: 'The row that failed' }));
    expect(Object.fromEntries((await me.listEntries('movies')).data.map((e) => [e.item.title, [e.status, e.score]]))).toEqual({
      Heat: ['completed', 9],
      'Blade Runner': ['completed', 8],
    });
    await visible(page.getByRole('cell', { name: /3 rows: 2 added/ }));
    await expectAccessible(w, 'import finished');
    await w.screenshot('import-finished');

    // Export: the CSV the browser saves is the list.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^movies-list-\d{4}-\d{2}-\d{2}\.csv$/);
    const saved = readFileSync((await download.path())!, 'utf8');
    expect(saved.split('\r\n')[0]).toMatch(/^item_id,title,year,/);
    expect(saved).toContain('Blade Runner');
    expect(saved).toContain('Heat');

    // Statistics.
    await page.getByRole('link', { name: 'Statistics' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Statistics of my movies' }));
    const scores = page.getByRole('img', { name: /^Scores given:/ });
    await until(async () => expect(await scores.getAttribute('aria-label')).toBe('Scores given: 2 entries scored, mean 8.5; 8: 1, 9: 1'));
    expect(await page.getByRole('img', { name: /per year:/ }).getAttribute('aria-label')).toMatch(/: 2023: 1, 2024: 1$/);
    await expectAccessible(w, 'statistics');
    await w.screenshot('statistics');

    // History of a list entry, on its page. (Moves within the app from here: a page load would make axe-core
    // be injected again, seconds on a busy machine.)
    await page.getByRole('link', { name: 'My list', exact: true }).click();
    await page.locator('.list-row__title a', { hasText: 'Heat' }).click();
    const history = page.getByRole('region', { name: 'History' });
    await visible(history.getByRole('listitem'));
    expect(await history.getByRole('listitem').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Score set to 9')]));

    // Moderation: merge the copy into Heat (found by searching), then its old address leads to Heat.
    await page.getByRole('link', { name: 'Browse' }).click();
    await page.getByLabel('Search movies').fill(`copy ${width}`);
    await page.locator('.cards .card__title', { hasText: `Heat (copy ${width})` }).click();
    await page.getByLabel(/The movie to keep/).fill('heat');
    await page.getByRole('list', { name: 'Matching entries' }).getByRole('button', { name: 'Merge into “Heat” (1995)' }).click();
    const mergeDialog = page.getByRole('dialog', { name: `Merge “Heat (copy ${width})” into “Heat”?` });
    await expectAccessible(w, 'merge confirmation');
    await w.screenshot('merge-confirmation');
    await mergeDialog.getByRole('button', { name: 'Merge' }).click();
    await page.waitForURL(`${web.url}/movies/${movies['Heat']}`);
    await visible(page.getByText(`“Heat (copy ${width})” merged into “Heat”.`));
    await page.goto(`${web.url}/movies/${duplicate.id}`);
    await page.waitForURL(`${web.url}/movies/${movies['Heat']}`);
    await visible(page.getByRole('heading', { level: 1, name: 'Heat (1995)' }));

    // Delete an entry that is on someone's list: the notice counts it.
    await page.goto(`${web.url}/movies/${obsolete.id}`);
    await page.getByRole('button', { name: 'Delete this movie' }).click();
    await page.getByRole('dialog', { name: `Delete “Obsolete ${width}”?` }).getByRole('button', { name: 'Delete for everyone' }).click();
    await visible(page.getByText(`“Obsolete ${width}” deleted from the catalog, with 1 list entry.`));
    await page.waitForURL(`${web.url}/movies`);
    await expect(seeder.getEntry('movies', obsolete.id)).rejects.toMatchObject({ status: 404 });

    await expectCleanPage(w);
    await w.close();
  }, 240_000);
});

it('shows a stored XSS attempt in titles and notes as text, and runs none of it', async () => {
  const person = await registerAndLogin(web.client(), 'xss');
  await web.client(person.token).addListEntry('movies', { item_id: movies[XSS]!, status: 'watching', notes: XSS });
  const w = await openPage(browser, { width: 1280, name: 'xss' });
  const { page } = w;
  await page.goto(`${web.url}/login`);
  await page.getByLabel('Username or email').fill(person.username);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await visible(page.getByRole('heading', { level: 1, name: 'Home' }));

  for (const path of ['/movies?q=img', `/movies/${movies[XSS]}`, '/movies/list']) {
    await page.goto(`${web.url}${path}`);
    await visible(page.getByText(XSS, { exact: true }).first());
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
  }
  await expectText(page.locator('.list-row__notes'), XSS);
  await w.screenshot('xss-as-text');
  await expectCleanPage(w);
  await w.close();
}, 180_000);

it('asks for the password again when the JWT is cut off, and sends what was typed once logged in', async () => {
  const person = await registerAndLogin(web.client(), 'expiry');
  await web.client(person.token).addListEntry('movies', { item_id: movies['Alien']!, status: 'watching' });
  const w = await openPage(browser, { width: 390, name: 'reauth' });
  const { page } = w;
  await page.goto(`${web.url}/movies/list?status=watching`);
  // Not signed in: to the login page and back to the same screen.
  await page.waitForURL(/\/login\?next=%2Fmovies%2Flist%3Fstatus%3Dwatching$/);
  await page.getByLabel('Username or email').fill(person.username);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(/\/movies\/list\?status=watching$/);

  await page.getByRole('button', { name: 'Edit Alien' }).click();
  const editor = page.getByRole('form', { name: 'Edit Alien' });
  await editor.getByLabel('Notes').fill('Typed before the session ended.');
  // A password change elsewhere cuts off every older JWT, this tab's included (docs/api.md "Authentication").
  const newPassword = 'a brand new password';
  await web.client(await sessionToken(page)).http.PUT('/api/v1/auth/password', { body: { current_password: person.password, new_password: newPassword } });
  await editor.getByRole('button', { name: 'Save' }).click();

  const dialog = page.getByRole('dialog', { name: 'Log in again' });
  await visible(dialog);
  await expectAccessible(w, 're-login dialog');
  await w.screenshot('reauth-dialog');
  await dialog.getByLabel('Password').fill('not the password');
  await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
  await expectText(dialog.getByRole('alert'), 'Wrong password.');
  await dialog.getByLabel('Password').fill(newPassword);
  await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
  await hidden(dialog);
  await expectText(page.locator('.list-row__notes'), 'Typed before the session ended.');
  const fresh = web.client(await sessionToken(page));
  expect(await fresh.getListEntry('movies', movies['Alien']!)).toMatchObject({ notes: 'Typed before the session ended.' });

  // A session that ran out while the tab was closed: log in, then back where the person was.
  await page.evaluate(`(() => { const s = JSON.parse(sessionStorage.getItem('mt.session')); s.expiresAt = Date.now() - 1000; sessionStorage.setItem('mt.session', JSON.stringify(s)); })()`);
  await page.goto(`${web.url}/movies/list?status=watching`);
  await visible(page.getByText('Your session has ended.'));
  await page.getByLabel('Username or email').fill(person.username);
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(/\/movies\/list\?status=watching$/);
  await expectCleanPage(w);
  await w.close();
}, 180_000);

it('downloads at most 150 KB of gzipped JavaScript on a first visit, and no screen of a signed-in person', async () => {
  const w = await openPage(browser, { width: 390, name: 'first-load' });
  const scripts: Array<Promise<{ url: string; gzipped: number }>> = [];
  w.page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push(
        response.body().then(
          (body) => ({ url: response.url(), gzipped: gzipSync(body, { level: 9 }).length }),
          () => ({ url: response.url(), gzipped: Number.POSITIVE_INFINITY }),
        ),
      );
  });
  await w.page.goto(`${web.url}/login`);
  await visible(w.page.getByRole('heading', { level: 1, name: 'Log in' }));
  await w.page.waitForLoadState('networkidle');
  const loaded = await Promise.all(scripts);
  const total = loaded.reduce((sum, s) => sum + s.gzipped, 0);
  expect(loaded.length).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
  expect(loaded.map((s) => s.url).filter((url) => /list-screen|tokens-screen|account-screen/.test(url))).toEqual([]);
  await expectAccessible(w, 'login');
  await w.close();
}, 120_000);

