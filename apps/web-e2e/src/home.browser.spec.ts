import type { ApiClient } from '@mt/api-client';
import type { Browser, Locator, Page } from 'playwright-core';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkScreen, closeOpenPages, launchBrowser, openPage, type WatchedPage } from './support/browser';
import { startWebStack, type WebStack } from './support/web-stack';
import { expectText, until, visible } from './support/wait';

/**
 * A person's daily use: the home at `/`, one search over every category, acting on an entry from its page,
 * at 360, 390 and 1280 px; every screen checked with axe and for horizontal scrolling; every form driven
 * into the 4xx answers docs/api.md documents for it, each shown next to its field or form.
 */

const PASSWORD = 'correct horse battery';

let web: WebStack;
let browser: Browser;
let run = 0;
const unique = (name: string) => `${name}${Date.now().toString(36)}${(run += 1)}`;

async function registerAndLogin(client: ApiClient, name: string) {
  const username = unique(name);
  await client.register({ username, email: `${username}@example.com`, password: PASSWORD });
  const login = await client.login({ username, password: PASSWORD });
  return { username, token: login.access_token };
}

async function logIn(page: Page, username: string, next = '/') {
  await page.goto(`${web.url}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

beforeAll(async () => {
  [web, browser] = await Promise.all([startWebStack('home'), launchBrowser()]);
}, 180_000);

afterEach(() => closeOpenPages());

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

describe.each([360, 390, 1280])('the home at %i px wide', (width) => {
  it('takes a new person from an empty home through one search, an addition and progress on the entry page back to an updated home', async () => {
    const seeder = web.client((await registerAndLogin(web.client(), 'seed')).token);
    const word = unique('Orbit');
    await seeder.createEntry('movies', { title: `${word} One`, year: 2001, runtime_minutes: 120 });
    const show = await seeder.createEntry('tvshows', { title: `${word} Saga`, year: 2010, episodes: 10, description: 'A long way round.' });
    await seeder.createEntry('books', { title: `${word} Notes`, year: 1999, pages: 300 });

    const w = await openPage(browser, { width, name: `home-${width}` });
    const { page } = w;
    const username = unique('daily');

    // Register: the default landing is the home, which says what to do while it is empty.
    await page.goto(`${web.url}/register`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email').fill(`${username}@example.com`);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Home' }));
    await visible(page.getByText('Nothing on your lists yet.'));
    await visible(page.getByText(/Search above for a film, a show or a book/));
    await checkScreen(w, 'home-empty');

    // One search over every category, grouped by category.
    await page.getByLabel('Search films, shows and books').fill(word.toLowerCase());
    for (const group of ['Books (1)', 'Movies (1)', 'TV Shows (1)']) await visible(page.getByRole('heading', { level: 2, name: group }));
    await checkScreen(w, 'search-everywhere');

    // Add the show from its result: it is marked as on the list at once.
    const showGroup = page.getByRole('region', { name: /TV Shows/ });
    await showGroup.getByRole('button', { name: /^Add/ }).click();
    await visible(showGroup.getByText('On your list · Plan to watch'));
    await checkScreen(w, 'search-added');

    // The home shows it among what is planned.
    const planned = page.getByRole('region', { name: 'Planned' });
    await visible(planned.getByRole('link', { name: `${word} Saga` }));
    await page.getByLabel('Search films, shows and books').fill('');
    await checkScreen(w, 'home-planned');

    // Its page is where to act on it: +1 episode starts it, with Undo offered.
    await planned.getByRole('link', { name: `${word} Saga` }).click();
    await visible(page.getByRole('heading', { level: 1, name: `${word} Saga (2010)` }));
    await page.getByRole('button', { name: /^\+1/ }).click();
    await expectText(page.locator('.stepper__value'), '1 / 10 episodes');
    await until(async () => expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('watching'));
    await visible(page.getByRole('status').getByRole('button', { name: 'Undo' }));
    await checkScreen(w, 'entry-progress');
    const me = web.client(JSON.parse((await page.evaluate<string>(`sessionStorage.getItem('mt.session')`)) ?? '{}').token);
    expect(await me.getListEntry('tvshows', show.id)).toMatchObject({ status: 'watching', progress: 1 });

    // Back home: the show is up next, with its progress.
    await page.getByRole('link', { name: 'Media Tracker' }).click();
    const upNext = page.getByRole('region', { name: 'Up next' });
    await visible(upNext.getByRole('link', { name: `${word} Saga` }));
    await visible(upNext.getByText('1 / 10 episodes'));
    await checkScreen(w, 'home-updated');
    expect(w.errors).toEqual([]);
    await w.close();
  }, 240_000);
});

describe.each([360, 1280])('every screen at %i px wide', (width) => {
  it('passes axe and fits the window', async () => {
    const person = await registerAndLogin(web.client(), `screens${width}`);
    const api = web.client(person.token);
    const film = await api.createEntry('movies', { title: unique('A film with a rather long title indeed '), year: 1984, runtime_minutes: 101, description: 'Seen on a phone.' });
    const other = await api.createEntry('movies', { title: unique('Not on the list '), year: 1990 });
    await api.addListEntry('movies', { item_id: film.id, status: 'watching', progress: 30, score: 8, notes: 'Half way.' });
    await api.createToken({ name: 'a token with a long descriptive name for the backup script', expires_in_days: 30 });

    const w = await openPage(browser, { width, name: `screens-${width}` });
    const { page } = w;
    await page.goto(`${web.url}/`);
    await visible(page.getByRole('heading', { level: 1, name: 'Media Tracker' }));
    await checkScreen(w, 'welcome');
    await page.goto(`${web.url}/register`);
    await visible(page.getByRole('heading', { level: 1 }));
    await checkScreen(w, 'register');
    await logIn(w.page, person.username);
    await visible(page.getByRole('heading', { level: 1, name: 'Home' }));
    await visible(page.getByRole('region', { name: 'Up next' }));
    // A fresh load of the home: its data arrives in two requests (the categories and the home itself).
    const before = w.requested.length;
    await page.goto(`${web.url}/`);
    await visible(page.getByRole('region', { name: 'Up next' }).getByRole('link'));
    await page.waitForLoadState('networkidle');
    const apiCalls = w.requested.slice(before).filter((url) => new URL(url).pathname.startsWith('/api/'));
    expect(apiCalls.map((url) => new URL(url).pathname).sort()).toEqual(['/api/v1/categories', '/api/v1/home']);
    await checkScreen(w, 'home');

    const screens: Array<[string, string, string | RegExp]> = [
      ['catalog', '/movies', 'Movies'],
      ['list', '/movies/list', 'My movies'],
      ['list-grid', '/movies/list?view=grid', 'My movies'],
      ['entry-on-list', `/movies/${film.id}`, /A film with a rather long title/],
      ['entry-not-on-list', `/movies/${other.id}`, /Not on the list/],
      ['add-entry', '/movies/new', 'Add a movie'],
      ['import', '/movies/import', 'Import and export movies'],
      ['stats', '/movies/stats', 'Statistics of my movies'],
      ['tv-list', '/tvshows/list', 'My TV shows'],
      ['account', '/account', 'Account'],
      ['tokens', '/tokens', 'Access tokens'],
      ['not-found', '/no/such/page', /not found|Page not found|No such/i],
    ];
    // No screen asks for something that is not there: an entry not on the list is no 404 in the console.
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    for (const [name, url, heading] of screens) {
      // Within the app, as a person moves (a reload would inject axe again, slow on a busy machine).
      await page.evaluate(`history.pushState({}, '', ${JSON.stringify(url)}); dispatchEvent(new PopStateEvent('popstate'))`);
      await visible(page.getByRole('heading', { level: 1, name: heading }));
      await page.waitForLoadState('networkidle');
      await checkScreen(w, name);
    }
    expect(missing).toEqual([]);
    expect(w.errors).toEqual([]);
    await w.close();
  }, 240_000);
});

describe('every documented 4xx a form can meet is shown next to its field or form', () => {
  let w: WatchedPage;
  let page: Page;
  let person: { username: string; token: string };

  const expectMessage = async (near: Locator, text: string | RegExp) => {
    await visible(near.getByText(text));
    await w.screenshot('message');
  };

  beforeEach(async () => {
    person = await registerAndLogin(web.client(), 'forms');
    const form = expect.getState().currentTestName?.split(':')[0]?.split(' ').pop() ?? 'form';
    w = await openPage(browser, { width: 1280, name: `forms-${form}` });
    page = w.page;
  });

  it('register: 400 under the field, 409 for a taken name', async () => {
    await page.goto(`${web.url}/register`);
    const form = page.locator('form');
    await page.getByLabel('Username').fill(unique('new'));
    await page.getByLabel('Email').fill(`${unique('new')}@example.com`);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectMessage(page.locator('.field', { has: page.getByLabel('Password') }), /8 characters/);
    await page.getByLabel('Username').fill(person.username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectMessage(form, /already taken/i);
    expect(await form.getByText(/Request id/).count()).toBe(0);
  });

  it('login: 401 for a wrong password', async () => {
    await page.goto(`${web.url}/login`);
    await page.getByLabel('Username or email').fill(person.username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expectMessage(page.locator('form'), 'Wrong username, email or password.');
  });

  it('add entry: 409 for a duplicate, with the way to the existing one', async () => {
    const existing = await web.client(person.token).createEntry('books', { title: unique('Dune '), year: 1965 });
    await logIn(page, person.username, '/books/new');
    await visible(page.getByRole('heading', { level: 1, name: 'Add a book' }));
    await page.getByLabel('Title').fill(existing.title);
    await page.getByLabel('Year').fill('1965');
    await page.getByRole('button', { name: 'Add the book' }).click();
    await visible(page.getByRole('link', { name: 'Open the existing book' }));
  });

  it('entry page: 400 for a finish date before the start, under the field', async () => {
    const api = web.client(person.token);
    const film = await api.createEntry('movies', { title: unique('Dated '), year: 2000 });
    await api.addListEntry('movies', { item_id: film.id, status: 'watching', started_at: '2024-05-01' });
    await logIn(page, person.username, `/movies/${film.id}`);
    await visible(page.getByRole('heading', { level: 1, name: new RegExp(film.title) }));
    await page.getByLabel('Finished').fill('2024-01-01');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectMessage(page.locator('.field', { has: page.getByLabel('Finished') }), /started_at|start/i);
  });

  it('tokens: 409 for a name already in use', async () => {
    await web.client(person.token).createToken({ name: 'backup' });
    await logIn(page, person.username, '/tokens');
    await visible(page.getByRole('heading', { level: 1, name: 'Access tokens' }));
    await page.getByLabel('Name', { exact: true }).fill('backup');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expectMessage(page.locator('form', { has: page.getByRole('button', { name: 'Create token' }) }), 'A token with this name already exists.');
  });

  it('account: 409 for a taken username, 403 for a wrong current password, 400 for a short new one', async () => {
    const other = await registerAndLogin(web.client(), 'other');
    await logIn(page, person.username, '/account');
    await visible(page.getByRole('heading', { level: 1, name: 'Account' }));
    const profile = page.locator('form', { has: page.getByRole('button', { name: 'Save profile' }) });
    await profile.getByLabel('Username').fill(other.username);
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await expectMessage(profile, /taken/i);
    const password = page.locator('form', { has: page.getByRole('button', { name: 'Change password' }) });
    await password.getByLabel('Current password').fill('not the password');
    await password.getByLabel('New password').fill('another long password');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expectMessage(password.locator('.field', { has: page.getByLabel('Current password') }), 'The current password is not right.');
    await password.getByLabel('Current password').fill(PASSWORD);
    await password.getByLabel('New password').fill('short');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expectMessage(password.locator('.field', { has: page.getByLabel('New password') }), /8 characters/);
  });

  it('plays: 400 for a date in the future, under the date', async () => {
    const api = web.client(person.token);
    const film = await api.createEntry('movies', { title: unique('Not Yet '), year: 2001 });
    await api.addListEntry('movies', { item_id: film.id });
    await logIn(page, person.username, `/movies/${film.id}`);
    const plays = page.getByRole('region', { name: 'When I watched it' });
    await plays.getByRole('radio', { name: 'On a date' }).check();
    await plays.getByLabel('Date', { exact: true }).fill('2999-03-04');
    await plays.getByRole('button', { name: 'I watched it' }).click();
    await expectMessage(plays.locator('.field', { has: page.getByLabel('Date', { exact: true }) }), /future/i);
    expect(await plays.getByRole('list', { name: 'Times watched' }).count()).toBe(0);
  });

  it('connections: 400 for a threshold under 50 next to it, 409 on the form for a 21st connection', async () => {
    const api = web.client(person.token);
    await logIn(page, person.username, '/connections/plex');
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Create connection' }) });
    await form.getByLabel('Counts as watched from (%)').fill('20');
    await form.getByRole('button', { name: 'Create connection' }).click();
    await expectMessage(form.locator('.field', { has: page.getByLabel('Counts as watched from (%)') }), /50/);
    for (let n = 0; n < 20; n++) await api.createScrobbleHook({ server: 'plex', name: `Room ${n}` });
    await form.getByLabel('Counts as watched from (%)').fill('90');
    await form.getByRole('button', { name: 'Create connection' }).click();
    await expectMessage(form, /at most 20/i);
  });

  it("import: 400 for an unreadable file next to the file, and Letterboxd's file kind chosen in the form", async () => {
    const dir = path.join(os.tmpdir(), unique('import'));
    mkdirSync(dir, { recursive: true });
    const broken = path.join(dir, 'list.json');
    writeFileSync(broken, '{ this is not json');
    const letterboxd = path.join(dir, 'letterboxd.csv');
    writeFileSync(letterboxd, 'Date,Name,Year,Letterboxd URI\n2024-01-02,Heat,1995,https://boxd.it/abc\n');
    await logIn(page, person.username, '/movies/import');
    await visible(page.getByRole('heading', { level: 1, name: 'Import and export movies' }));
    await page.getByLabel('From', { exact: true }).selectOption('media-tracker');
    await page.getByLabel('File', { exact: true }).setInputFiles(broken);
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expectMessage(page.locator('.field', { has: page.getByLabel('File', { exact: true }) }), /JSON|read/i);

    // Letterboxd: a file named letterboxd.csv is imported once the person says which file it is.
    await page.getByLabel('From', { exact: true }).selectOption('letterboxd');
    await page.getByLabel('File', { exact: true }).setInputFiles(letterboxd);
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expectMessage(page.locator('.field', { has: page.getByLabel('Which file') }), 'Choose which of its files this is.');
    await page.getByLabel('Which file').selectOption('watched.csv');
    await page.getByRole('button', { name: 'Check the file' }).click();
    await visible(page.getByText(/Dry run finished/));
  });
});

/** `MT_README_SCREENSHOTS=1 npx nx test web-e2e`: the README's pictures, from a small seeded account. */
const readmeIt = process.env['MT_README_SCREENSHOTS'] === '1' ? it : it.skip;
readmeIt('writes the README screenshots of the home, a list as a grid and an entry page', async () => {
  const person = await registerAndLogin(web.client(), 'reader');
  const api = web.client(person.token);
  const seed: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['tvshows', { title: 'Slow Horses', year: 2022, episodes: 24, network: 'Apple TV+', description: 'Failed MI5 agents in a dead-end office.' }, { status: 'watching', progress: 9, score: 9 }],
    ['books', { title: 'The Left Hand of Darkness', year: 1969, pages: 304, authors: ['Ursula K. Le Guin'] }, { status: 'watching', progress: 120 }],
    ['movies', { title: 'Perfect Days', year: 2023, runtime_minutes: 124, director: 'Wim Wenders' }, { status: 'completed', score: 9 }],
    ['movies', { title: 'Past Lives', year: 2023, runtime_minutes: 106 }, { status: 'completed', score: 8 }],
    ['movies', { title: 'Aftersun', year: 2022, runtime_minutes: 102 }, { status: 'plan_to_watch' }],
    ['movies', { title: 'The Zone of Interest', year: 2023, runtime_minutes: 105 }, { status: 'plan_to_watch' }],
    ['movies', { title: 'Anatomy of a Fall', year: 2023, runtime_minutes: 151 }, { status: 'completed', score: 8 }],
    ['tvshows', { title: 'The Bear', year: 2022, episodes: 38 }, { status: 'plan_to_watch' }],
  ];
  const ids: Record<string, string> = {};
  for (const [category, fields, entry] of seed) {
    const created = await api.createEntry(category, fields as { title: string });
    ids[String(fields['title'])] = created.id;
    await api.addListEntry(category, { item_id: created.id, ...entry });
  }
  const w = await openPage(browser, { width: 1280, height: 860, name: 'readme' });
  const { page } = w;
  await logIn(page, person.username);
  await visible(page.getByRole('region', { name: 'Up next' }).getByRole('link', { name: 'Slow Horses' }));
  const dir = path.join(__dirname, '..', '..', '..', 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, 'home.png') });
  await page.goto(`${web.url}/movies/list?view=grid`);
  await visible(page.locator('.card--poster').first());
  await page.screenshot({ path: path.join(dir, 'list-grid.png') });
  await page.goto(`${web.url}/tvshows/${ids['Slow Horses']}`);
  await visible(page.locator('.stepper__value'));
  await page.screenshot({ path: path.join(dir, 'entry.png') });
  await w.close();
}, 180_000);
