import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, baseServer, CATEGORIES, json, listEntry } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const FOUND = 'c'.repeat(24);
const MOVIES = { ...CATEGORIES[1]!, providers: ['tmdb'] };
const BOOKS = { ...CATEGORIES[0]!, providers: [] };

const hit = {
  provider: 'tmdb',
  provider_id: '348',
  title: 'Alien',
  year: 1979,
  overview: 'The crew of a commercial spacecraft…',
  poster_url: 'https://image.tmdb.org/t/p/w500/alien.jpg',
  poster: '/api/v1/images/tmdb/w500/alien.jpg',
  external_ids: { tmdb: '348' },
  existing_id: null,
};

/** A catalog that has nothing for the query, and TMDB that has it. */
function providerServer(importAnswer: () => Response) {
  return baseServer()
    .on('GET', '/api/v1/categories', () => json(200, [BOOKS, MOVIES]))
    .on('GET', '/api/v1/home', () => json(200, { up_next: [], planned: [], recently_finished: [], month: { month: '2026-12', finished: 0, by_category: [] }, unavailable: [] }))
    .on('GET', '/api/v1/search', (request) => json(200, { q: request.query.get('q'), groups: [{ category: 'movies', display_name: 'Movies', total: 0, results: [] }], unavailable: [] }))
    .on('GET', '/api/v1/movies/providers/search', () => json(200, { data: [hit, { ...hit, provider_id: '1', title: 'Listed', existing_id: FOUND }] }))
    .on('POST', '/api/v1/movies/providers/import', importAnswer)
    .on('POST', '/api/v1/movies/list', (request) => json(201, listEntry((request.body as { item_id: string }).item_id, 'Alien')));
}

async function searchAndLook(server: ReturnType<typeof providerServer>) {
  renderApp(server, '/');
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Search films, shows and books'), 'alien');
  await user.click(await screen.findByRole('button', { name: 'Look on TMDB' }));
  const section = await screen.findByRole('region', { name: 'Movies: not in the catalog yet — found on TMDB' });

  return { user, section, addButton: () => within(section).findByRole('button', { name: 'Add Alien to my list' }) };
}

describe('results from the metadata providers', () => {
  it('adds a work found on TMDB to the catalog and the list, with its poster from this origin', async () => {
    const server = providerServer(() => json(201, { id: FOUND, title: 'Alien', year: 1979 }));
    const { user, section, addButton } = await searchAndLook(server);
    const add = await addButton();
    expect(within(section).queryByText('Listed')).toBeNull();
    expect((within(section).getByRole('img', { name: 'Poster of Alien' }) as HTMLImageElement).getAttribute('src')).toBe('/api/v1/images/tmdb/w500/alien.jpg');
    await user.click(add);
    expect(await within(section).findByText('Added to your list')).toBeTruthy();
    expect(server.sent('POST', '/api/v1/movies/providers/import')[0]?.body).toEqual({ provider: 'tmdb', provider_id: '348' });
    expect(server.sent('POST', '/api/v1/movies/list')[0]?.body).toEqual({ item_id: FOUND });
    expect(within(section).getByRole('link', { name: 'Alien' }).getAttribute('href')).toBe(`/movies/${FOUND}`);
    expect(server.sent('GET', '/api/v1/books/providers/search')).toHaveLength(0);
  });

  it('adds the entry someone imported meanwhile (409 names it) instead of failing', async () => {
    const server = providerServer(() => apiError(409, 'conflict', 'external id taken', { existing_id: FOUND }));
    const { user, section, addButton } = await searchAndLook(server);
    await user.click(await addButton());
    expect(await within(section).findByText('Added to your list')).toBeTruthy();
    expect(server.sent('POST', '/api/v1/movies/list')[0]?.body).toEqual({ item_id: FOUND });
  });

  it("shows the provider's failure where its results would be", async () => {
    const server = providerServer(() => json(201, {})).on('GET', '/api/v1/movies/providers/search', () => apiError(502, 'provider_unavailable', 'tmdb did not answer'));
    const { section } = await searchAndLook(server);
    expect((await within(section).findByRole('alert')).textContent).toContain('Tmdb did not answer.');
  });
});
