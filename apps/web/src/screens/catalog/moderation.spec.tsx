import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, baseServer, json, listEntry, page, USER } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';
import { SESSION_KEY } from '../../session/session-store';

const DUP = 'd'.repeat(24);
const KEEP = 'e'.repeat(24);
const entry = (id: string, title: string) => ({ id, title, year: 1979, genres: [], description: null, external_ids: {}, created_by: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' });

/** renderApp signs in as a plain user; a moderator's session carries the role (from login / GET /auth/me). */
function signInAs(role: 'user' | 'moderator' | 'admin') {
  sessionStorage.setItem(SESSION_KEY, JSON.stringify({ token: 'jwt-1', expiresAt: Date.now() + 3_600_000, user: { ...USER, role } }));
}

function catalogServer() {
  return baseServer()
    .on('GET', `/api/v1/movies/${DUP}`, () => json(200, entry(DUP, 'Alien (dup)')))
    .on('GET', `/api/v1/movies/${KEEP}`, () => json(200, entry(KEEP, 'Alien')))
    .on('GET', /^\/api\/v1\/movies\/list\/[0-9a-f]{24}$/, () => apiError(404, 'not_found', 'not on your list'))
    .on('GET', '/api/v1/movies', () => json(200, page([entry(DUP, 'Alien (dup)'), entry(KEEP, 'Alien')])));
}


describe('moderation on the entry page', () => {
  it('is not offered to a plain user', async () => {
    renderApp(catalogServer(), `/movies/${DUP}`);
    await screen.findByRole('heading', { level: 1, name: /Alien \(dup\)/ });
    await screen.findByRole('button', { name: 'Add to my list' });
    expect(screen.queryByRole('heading', { name: 'Moderation' })).toBeNull();
  });

  it('deletes an entry after confirmation and says how many list entries went with it', async () => {
    signInAs('moderator');
    const server = catalogServer().on('DELETE', `/api/v1/movies/${DUP}`, () => json(200, { message: 'deleted', list_entries_removed: 3 }));
    const app = renderApp(server, `/movies/${DUP}`, { signedIn: false });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete this movie' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Alien (dup)”?' });
    expect(server.sent('DELETE', `/api/v1/movies/${DUP}`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete for everyone' }));
    expect(await screen.findByText('“Alien (dup)” deleted from the catalog, with 3 list entries.')).toBeTruthy();
    await waitFor(() => expect(app.location()).toBe('/movies'));
  });

  it('merges into an entry found by searching, then shows the survivor', async () => {
    signInAs('admin');
    const server = catalogServer().on('POST', `/api/v1/movies/${DUP}/merge`, () => json(200, entry(KEEP, 'Alien')));
    const app = renderApp(server, `/movies/${DUP}`, { signedIn: false });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/The movie to keep/), 'alien');
    const results = await screen.findByRole('list', { name: 'Matching entries' });
    // The entry itself is not offered as its own survivor.
    expect(within(results).getAllByRole('button').map((b) => b.textContent)).toEqual(['Merge into “Alien” (1979)']);
    await user.click(within(results).getByRole('button'));
    await user.click(within(screen.getByRole('dialog', { name: 'Merge “Alien (dup)” into “Alien”?' })).getByRole('button', { name: 'Merge' }));
    expect(server.sent('POST', `/api/v1/movies/${DUP}/merge`)[0]?.body).toEqual({ into: KEEP });
    await waitFor(() => expect(app.location()).toBe(`/movies/${KEEP}`));
    expect(await screen.findByText('“Alien (dup)” merged into “Alien”.')).toBeTruthy();
  });

  it('shows a 409 conflict of a merge by id in words, changing nothing', async () => {
    signInAs('moderator');
    const server = catalogServer().on('POST', `/api/v1/movies/${DUP}/merge`, () => apiError(409, 'conflict', "external id 'imdb' differs: tt0078748 vs tt0000001"));
    const app = renderApp(server, `/movies/${DUP}`, { signedIn: false });
    const user = userEvent.setup();
    const field = await screen.findByLabelText(/The movie to keep/);
    await user.type(field, DUP);
    await user.click(screen.getByRole('button', { name: 'Merge into this id' }));
    expect((await screen.findByText('An entry cannot be merged into itself.')).className).toBe('field__error');
    await user.clear(field);
    await user.type(field, KEEP);
    await user.click(screen.getByRole('button', { name: 'Merge into this id' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Merge' }));
    const alert = await screen.findByText(/These entries cannot be merged/);
    expect(alert.textContent).toBe("These entries cannot be merged: External id 'imdb' differs: tt0078748 vs tt0000001. Correct the external ids of one of them first; nothing was changed.");
    expect(app.location()).toBe(`/movies/${DUP}`);
  });

  it('lands on the survivor when a merged id is opened (the 301 is followed)', async () => {
    // fetch follows the 301 itself: what the app sees is the survivor under the old address.
    const server = catalogServer().on('GET', `/api/v1/movies/${DUP}`, () => json(200, entry(KEEP, 'Alien')));
    const app = renderApp(server, `/movies/${DUP}`);
    await waitFor(() => expect(app.location()).toBe(`/movies/${KEEP}`));
    expect(await screen.findByRole('heading', { level: 1, name: /^Alien/ })).toBeTruthy();
  });
});

describe('history of a list entry', () => {
  it('shows the changes newest first, in the words of the category', async () => {
    const server = catalogServer()
      .on('GET', `/api/v1/movies/list/${KEEP}`, () => json(200, listEntry(KEEP, 'Alien', 'completed', { score: 8 })))
      .on('GET', `/api/v1/movies/list/${KEEP}/history`, () =>
        json(200, [
          { at: '2026-03-02T10:00:00.000Z', field: 'score', from: 6, to: 8 },
          { at: '2026-03-01T10:00:00.000Z', field: 'status', from: 'watching', to: 'completed' },
          { at: '2026-02-01T10:00:00.000Z', field: 'status', from: null, to: 'watching' },
        ]),
      );
    renderApp(server, `/movies/${KEEP}`);
    const history = await screen.findByRole('region', { name: 'History' });
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(3));
    expect(within(history).getAllByRole('listitem').map((li) => li.lastElementChild?.textContent)).toEqual([
      'Score: 6 → 8',
      'Status: In progress → Completed',
      'Status set to In progress',
    ]);
    expect(within(history).getAllByRole('listitem')[0]!.querySelector('time')?.getAttribute('datetime')).toBe('2026-03-02T10:00:00.000Z');
  });
});
