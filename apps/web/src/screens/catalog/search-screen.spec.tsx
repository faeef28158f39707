import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { baseServer, json, page, type RecordedRequest } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const movie = (id: string, title: string, year: number | null = 1999) => ({
  id,
  title,
  year,
  description: null,
  genres: ['Action'],
  created_by: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  runtime_minutes: null,
  director: null,
});

describe('the catalog search', () => {
  it('searches once the typing pauses, cancels a superseded request, and shows only the latest results', async () => {
    const slow: RecordedRequest[] = [];
    const server = baseServer().on('GET', '/api/v1/movies', (request) => {
      const q = request.query.get('q') ?? '';
      if (q === 'mat') {
        slow.push(request);
        // Answers late, after the next query has been sent: its results must never show.
        return new Promise((resolve) => setTimeout(() => resolve(json(200, page([movie('a'.repeat(24), 'Stale result')]))), 600));
      }
      return json(200, page(q ? [movie('b'.repeat(24), 'The Matrix'), movie('c'.repeat(24), 'The Matrix Reloaded', 2003)] : []));
    });
    const app = renderApp(server, '/movies', { signedIn: false });
    const user = userEvent.setup();
    const input = await screen.findByLabelText('Search movies');
    await user.type(input, 'mat');
    await waitFor(() => expect(slow).toHaveLength(1));
    await user.type(input, 'r');
    expect(await screen.findByText('2 movies matching “matr”')).toBeTruthy();
    await waitFor(() => expect(slow[0]?.signal.aborted).toBe(true));
    await new Promise((r) => setTimeout(r, 700));
    expect(screen.queryByText('Stale result')).toBeNull();
    expect(screen.getAllByRole('link', { name: /The Matrix/ }).map((a) => a.textContent)).toEqual(['The Matrix', 'The Matrix Reloaded']);
    // One request per pause, not per keystroke.
    const queries = server.sent('GET', '/api/v1/movies').map((r) => r.query.get('q'));
    expect(queries).not.toContain('m');
    expect(queries).not.toContain('ma');
    expect(app.location()).toBe('/movies?q=matr');
  });

  it('marks the results already on the list, in one request for the page', async () => {
    const [listed, other] = ['b'.repeat(24), 'c'.repeat(24)];
    const server = baseServer()
      .on('GET', '/api/v1/movies', () => json(200, page([movie(listed, 'The Matrix'), movie(other, 'The Matrix Reloaded', 2003)])))
      .on('GET', '/api/v1/entries/movies', () => json(200, { [listed]: { status: 'watching', progress: 3, score: null }, [other]: null }));
    renderApp(server, '/movies?q=matrix');
    expect(await screen.findByText('On your list · In progress')).toBeTruthy();
    expect(screen.getAllByText(/On your list/)).toHaveLength(1);
    expect(server.sent('GET', '/api/v1/entries/movies').map((r) => r.query.get('ids'))).toEqual([`${listed},${other}`]);
  });

  it('offers to add the entry when nothing matches', async () => {
    const server = baseServer().on('GET', '/api/v1/movies', () => json(200, page([])));
    renderApp(server, '/movies?q=zzz');
    expect(await screen.findByText('No movies match “zzz”.')).toBeTruthy();
    const empty = screen.getByText('No movies match “zzz”.').parentElement!;
    expect(within(empty).getByRole('link', { name: 'Add a movie' }).getAttribute('href')).toBe('/movies/new?title=zzz');
  });

  it('pages with next_cursor once the server sends one, and back again', async () => {
    const server = baseServer().on('GET', '/api/v1/movies', (request) =>
      request.query.get('cursor') === 'c2'
        ? json(200, { ...page([movie('e'.repeat(24), 'Second page')]), page: 2, total: 2, total_pages: 2, next_cursor: null })
        : json(200, { ...page([movie('d'.repeat(24), 'First page')]), total: 2, total_pages: 2, next_cursor: 'c2' }),
    );
    renderApp(server, '/movies', { signedIn: false });
    const user = userEvent.setup();
    expect(await screen.findByText('First page')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next →' }));
    expect(await screen.findByText('Second page')).toBeTruthy();
    expect(server.sent('GET', '/api/v1/movies').at(-1)?.query.get('page')).toBeNull();
    expect((screen.getByRole('button', { name: 'Next →' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: '← Previous' }));
    expect(await screen.findByText('First page')).toBeTruthy();
  });

  it('shows a title written as HTML as text', async () => {
    const xss = '<img src=x onerror="window.__xss=1"></script>';
    const server = baseServer().on('GET', '/api/v1/movies', () => json(200, page([movie('f'.repeat(24), xss)])));
    renderApp(server, '/movies', { signedIn: false });
    expect((await screen.findByRole('link', { name: xss })).textContent).toBe(xss);
    expect(document.querySelector('img')).toBeNull();
  });

  it('shows an unavailable catalog in words with a way to try again', async () => {
    let calls = 0;
    const server = baseServer().on('GET', '/api/v1/movies', () =>
      (calls += 1) === 1 ? json(503, { error: 'no live instance', status: 503, code: 'service_unavailable', timestamp: 't', request_id: 'r-9' }) : json(200, page([movie('a'.repeat(24), 'Back again')])),
    );
    renderApp(server, '/movies', { signedIn: false });
    expect((await screen.findByRole('alert')).textContent).toContain('The service is not available right now.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Back again')).toBeTruthy();
  });
});
