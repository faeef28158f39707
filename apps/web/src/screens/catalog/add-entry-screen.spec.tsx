import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, baseServer, json } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const DOCUMENT = {
  openapi: '3.0.3',
  paths: { '/api/v1/movies': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/MoviesEntryCreate' } } } } } } },
  components: {
    schemas: {
      MoviesEntryCreate: {
        type: 'object',
        required: ['title'],
        properties: {
          title: { type: 'string', maxLength: 300 },
          year: { type: 'integer', minimum: 1870, maximum: 2100 },
          genres: { type: 'array', items: { type: 'string' } },
          director: { type: 'string', maxLength: 200 },
        },
      },
    },
  },
};

describe('adding a catalog entry', () => {
  const server = () => baseServer().on('GET', '/api/v1/openapi.json', () => json(200, DOCUMENT));

  it('offers the existing entry when the API reports a duplicate', async () => {
    const existing = 'e'.repeat(24);
    const s = server().on('POST', '/api/v1/movies', () => apiError(409, 'conflict', 'a movie with this title and year already exists', { existing_id: existing }));
    renderApp(s, '/movies/new?title=Heat');
    const user = userEvent.setup();
    expect(((await screen.findByLabelText('Title')) as HTMLInputElement).value).toBe('Heat');
    await user.type(screen.getByLabelText('Year (optional)'), '1995');
    await user.click(screen.getByRole('button', { name: 'Add the movie' }));
    const link = await screen.findByRole('link', { name: 'Open the existing movie' });
    expect(link.getAttribute('href')).toBe(`/movies/${existing}`);
    expect(screen.getByRole('alert').textContent).toContain('A movie with this title and year already exists.');
    expect(s.sent('POST', '/api/v1/movies')[0]?.body).toEqual({ title: 'Heat', year: 1995 });
  });

  it('shows the API field errors next to their fields and goes to the new entry once created', async () => {
    let attempts = 0;
    const s = server().on('POST', '/api/v1/movies', (request) =>
      (attempts += 1) === 1
        ? apiError(400, 'validation_failed', 'validation failed', { details: [{ path: 'year', message: 'must be at most 2100' }] })
        : json(201, { id: 'f'.repeat(24), ...(request.body as object) }),
    );
    const app = renderApp(s, '/movies/new');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Title'), 'Heat');
    await user.type(screen.getByLabelText('Year (optional)'), '3000');
    await user.type(screen.getByLabelText('Genres (optional)'), 'Crime, Thriller');
    await user.click(screen.getByRole('button', { name: 'Add the movie' }));
    const year = screen.getByLabelText('Year (optional)');
    await waitFor(() => expect(year.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Must be at most 2100.')).toBeTruthy();
    await user.clear(year);
    await user.type(year, '1995');
    await user.click(screen.getByRole('button', { name: 'Add the movie' }));
    await waitFor(() => expect(app.location()).toBe(`/movies/${'f'.repeat(24)}`));
    expect(s.sent('POST', '/api/v1/movies')[1]?.body).toEqual({ title: 'Heat', year: 1995, genres: ['Crime', 'Thriller'] });
  });
});
