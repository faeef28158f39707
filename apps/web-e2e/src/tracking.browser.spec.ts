import type { Browser, Page } from 'playwright-core';
import { ProviderReplay } from '@mt/testing';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { checkScreen, closeOpenPages, launchBrowser, openPage } from './support/browser';
import { startWebStack, type WebStack } from './support/web-stack';
import { expectText, until, visible } from './support/wait';

/**
 * Tracking what was watched, in the browser against a whole stack whose metadata providers are the replay
 * server (TMDB and Open Library as recorded): a show found on TMDB and added from the search, its poster from
 * this origin, a season marked on its page with progress and the next episode following, a rewatch, the diary;
 * and a media server connected from the Connections screens. At 390 and 1280 px, axe clean, no horizontal
 * scroll at 360 px.
 */

const PASSWORD = 'correct horse battery';

let web: WebStack;
let browser: Browser;
let replay: ProviderReplay;
let run = 0;
const unique = (name: string) => `${name}${Date.now().toString(36)}${(run += 1)}`;

async function newPerson(page: Page) {
  const username = unique('tracker');
  await web.client().register({ username, email: `${username}@example.com`, password: PASSWORD });
  await page.goto(`${web.url}/login`);
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await visible(page.getByRole('heading', { level: 1, name: 'Home' }));
  return username;
}

/** `MT_README_SCREENSHOTS=1`: the README's pictures of these screens, from the desktop run. */
async function readmeShot(page: Page, width: number, name: string) {
  if (process.env['MT_README_SCREENSHOTS'] !== '1' || width !== 1280) return;
  const dir = path.join(__dirname, '..', '..', '..', 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/**
 * A show of its own for one run: Severance as recorded, under another TMDB id, title and external ids, so each
 * width imports a work the catalog does not have yet.
 */
function recordShow(width: number): string {
  const [severance] = replay.fixtures.shows;
  const id = severance!.id * 10 + (width % 10) + run;
  const title = `Severance W${width}`;
  replay.fixtures.shows.push({ ...structuredClone(severance!), id, name: title, original_name: title, external_ids: { imdb_id: `tt9${id}`, tvdb_id: id, freebase_mid: null, tvrage_id: null } });
  for (const [key, season] of Object.entries(replay.fixtures.seasons)) {
    if (!key.startsWith(`${severance!.id}/`)) continue;
    const episodes = season.episodes.map((episode) => ({ ...episode, id: Number(`${id}${String(episode['id'])}`.slice(0, 15)) }));
    replay.fixtures.seasons[`${id}/${season.season_number}`] = { ...season, episodes };
  }
  return title;
}

/** An <img> that loaded (not the placeholder, not a broken image) from this origin's image route. */
async function expectLoadedPoster(page: Page, name: string) {
  const image = page.getByRole('img', { name }).first();
  await visible(image);
  await until(async () => expect(await image.evaluate((node) => (node as HTMLImageElement).complete && (node as HTMLImageElement).naturalWidth > 0)).toBe(true));
  expect(new URL((await image.getAttribute('src')) ?? '', web.url).pathname).toMatch(/^\/api\/v1\/images\/tmdb\//);
}

beforeAll(async () => {
  replay = await new ProviderReplay().start();
  [web, browser] = await Promise.all([startWebStack('tracking', { env: { ...replay.env, IMAGE_ALLOW_PRIVATE_HOSTS: 'true' } }), launchBrowser()]);
}, 180_000);

afterEach(() => closeOpenPages());

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  await replay?.close();
});

describe.each([390, 1280])('at %i px wide', (width) => {
  it('adds a show found on TMDB, marks a season, follows progress and the next episode, and starts a rewatch', async () => {
    const w = await openPage(browser, { width, name: `tracking-${width}` });
    const { page } = w;
    await newPerson(page);
    const title = recordShow(width);

    // Search → "not in the catalog yet", found on TMDB → Add: imported with its episodes, and on the list.
    await page.getByLabel('Search films, shows and books').fill(title.toLowerCase());
    await page.getByRole('button', { name: /^Look on .*TMDB/ }).click();
    const found = page.getByRole('region', { name: 'TV Shows: not in the catalog yet — found on TMDB' });
    await expectLoadedPoster(page, `Poster of ${title}`);
    await found.getByRole('button', { name: `Add ${title} to my list` }).click();
    await visible(found.getByText('Added to your list'));
    await checkScreen(w, 'provider-added');
    await readmeShot(page, width, 'provider-search');

    // Its page: the poster, the checklist, "0 / n episodes" and the first episode next.
    await found.getByRole('link', { name: title }).click();
    await visible(page.getByRole('heading', { level: 1, name: new RegExp(`^${title}`) }));
    await expectLoadedPoster(page, `Poster of ${title}`);
    const episodes = page.getByRole('region', { name: 'Episodes' });
    await visible(episodes.getByText(/^0 \/ \d+ episodes$/));
    const aired = Number((await episodes.locator('.episodes__count strong').textContent())?.split(' / ')[1]?.split(' ')[0]);
    await visible(episodes.getByText('Next: S1 · E1', { exact: false }));
    await checkScreen(w, 'entry-episodes');

    // Mark season 1: progress and the next episode follow, and so does the list entry.
    const seasonOne = episodes.locator('details.season').filter({ hasText: 'Season 1' });
    await seasonOne.getByRole('button', { name: 'Mark season 1 watched' }).click();
    const seasonOneCount = await seasonOne.locator('.episode').count();
    await expectText(episodes.locator('.episodes__count strong'), `${seasonOneCount} / ${aired} episodes`);
    await visible(episodes.getByText('Next: S2 · E1', { exact: false }));
    await until(async () => expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('watching'));
    await checkScreen(w, 'entry-season-marked');
    await episodes.scrollIntoViewIfNeeded();
    await readmeShot(page, width, 'episodes');

    // Every aired episode: completed; "Watch again" starts a new cycle from the first episode.
    await episodes.getByRole('button', { name: 'Mark all aired watched' }).click();
    await expectText(episodes.locator('.episodes__count strong'), `${aired} / ${aired} episodes`);
    await until(async () => expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('completed'));
    await page.getByRole('button', { name: 'Watch again' }).click();
    await expectText(episodes.locator('.episodes__count strong'), `0 / ${aired} episodes`);
    await visible(episodes.getByText('watching again (time 2)', { exact: false }));
    await until(async () => expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('watching'));
    await checkScreen(w, 'entry-rewatch');

    // +1 on the list row plays the next episode of the new cycle.
    await page.goto(`${web.url}/tvshows/list`);
    await page.getByRole('button', { name: `+1 episodes: ${title}` }).click();
    await visible(page.getByText(`S1 · E1 of “${title}” marked as watched.`));
    await visible(page.locator('.list-row').getByText(/1 \/ \d+ episodes|1 episodes/));
    await expectLoadedPoster(page, `Poster of ${title}`);
    await checkScreen(w, 'list-plus-one');
    // The grid view: the same poster, larger; and the catalog's own search results.
    await page.getByRole('button', { name: 'Grid', exact: true }).click();
    await expectLoadedPoster(page, `Poster of ${title}`);
    await checkScreen(w, 'list-grid');
    await page.goto(`${web.url}/tvshows?q=${encodeURIComponent(title)}`);
    await expectLoadedPoster(page, `Poster of ${title}`);
    await checkScreen(w, 'catalog-search');

    // The home: up next with its poster and next episode.
    await page.getByRole('link', { name: 'Media Tracker' }).click();
    const upNext = page.getByRole('region', { name: 'Up next' });
    await visible(upNext.getByRole('link', { name: title }));
    await visible(upNext.getByText('Next: S1 · E2', { exact: false }));
    await expectLoadedPoster(page, `Poster of ${title}`);
    await checkScreen(w, 'home-up-next');

    // The diary: every play, the earlier cycle's included.
    await page.goto(`${web.url}/tvshows/diary`);
    await visible(page.getByRole('heading', { level: 1, name: 'Diary' }));
    await until(async () => expect(await page.locator('.diary__play').count()).toBe(aired + 1));
    await expectLoadedPoster(page, `Poster of ${title}`);
    await checkScreen(w, 'diary');
    await readmeShot(page, width, 'diary');
    // The same screens on the narrowest phone: nothing wider than the window.
    await page.setViewportSize({ width: 360, height: 800 });
    await checkScreen(w, 'diary-360');
    await page.getByRole('link', { name: title }).first().click();
    await visible(page.getByRole('region', { name: 'Episodes' }).getByText(/^1 \/ \d+ episodes$/));
    await checkScreen(w, 'entry-episodes-360');

    expect(await w.cspViolations()).toEqual([]);
    expect(w.errors).toEqual([]);
    await w.close();
  }, 300_000);

  it('records a film as watched on a date, and connects Jellyfin with its URL shown once', async () => {
    const w = await openPage(browser, { width, name: `connections-${width}` });
    const { page } = w;
    await newPerson(page);
    const me = web.client(JSON.parse((await page.evaluate<string>(`sessionStorage.getItem('mt.session')`)) ?? '{}').token);
    const film = await me.createEntry('movies', { title: unique('Heat '), year: 1995, runtime_minutes: 170 });
    await me.addListEntry('movies', { item_id: film.id });

    // "I watched it" on a date: the play is listed and the entry completed.
    await page.goto(`${web.url}/movies/${film.id}`);
    const plays = page.getByRole('region', { name: 'When I watched it' });
    await plays.getByRole('radio', { name: 'On a date' }).check();
    await plays.getByLabel('Date', { exact: true }).fill('2024-03-04');
    await plays.getByRole('button', { name: 'I watched it' }).click();
    await visible(plays.getByRole('list', { name: 'Times watched' }).getByRole('listitem'));
    await until(async () => expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('completed'));
    await checkScreen(w, 'film-watched');

    // Connections: Jellyfin's steps, a new connection, its URL once, then listed with no event yet.
    await page.getByRole('link', { name: 'Connections' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Connections' }));
    await checkScreen(w, 'connections');
    await page.getByRole('link', { name: 'Jellyfin' }).click();
    await visible(page.getByRole('region', { name: 'Set it up' }).getByText('Add Generic Destination'));
    await page.getByRole('button', { name: 'Create connection' }).click();
    const url = (await page.getByLabel('URL for Jellyfin').textContent()) ?? '';
    expect(url).toMatch(/\/api\/v1\/scrobble\/jellyfin\/\S+$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await visible(page.getByText('Copied to the clipboard.'));
    await checkScreen(w, 'connection-created');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await visible(page.getByText('No event received yet'));

    // The media server's event through that URL: the show matches nothing, so it waits in the inbox.
    const event = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ NotificationType: 'PlaybackStop', ItemType: 'Movie', Name: unique('Nowhere '), Year: 2001, PlayedToCompletion: true, NotificationUsername: 'ada' }),
    });
    expect(event.status).toBe(202);
    // The hook's last event moves at the 202; the inbox entry follows once the queued event is matched (the
    // provider asked first): the page shows both after a reload.
    await until(async () => {
      await page.reload();
      await visible(page.getByRole('heading', { level: 1, name: 'Jellyfin' }));
      expect(await page.getByText(/^Last event /).count()).toBe(1);
      expect(await page.getByRole('region', { name: 'Not matched yet' }).getByRole('button', { name: /^Dismiss Nowhere/ }).count()).toBe(1);
    });
    await checkScreen(w, 'connection-inbox');
    await readmeShot(page, width, 'connections');
    await page.setViewportSize({ width: 360, height: 800 });
    await checkScreen(w, 'connection-360');
    expect(w.errors).toEqual([]);
    await w.close();
  }, 240_000);
});
