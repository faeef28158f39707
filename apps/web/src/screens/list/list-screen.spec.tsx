import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, baseServer, json, listEntry, page } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);
const C = 'c'.repeat(24);

/** A list held by the fake server, changed by the requests the screen sends. */
function listServer() {
  const entries = new Map([
    [A, listEntry(A, 'Alien', 'watching')],
    [B, listEntry(B, 'Heat', 'plan_to_watch', { score: 7 })],
    [C, listEntry(C, 'Zodiac', 'completed', { notes: 'Long.' })],
  ]);
  const server = baseServer()
    .on('GET', '/api/v1/movies/list', (request) => {
      const status = request.query.get('status');
      return json(200, page([...entries.values()].filter((e) => !status || e.status === status), { limit: 50 }));
    })
    .on('GET', '/api/v1/movies/list/stats', () => {
      const by_status: Record<string, number> = { watching: 0, completed: 0, on_hold: 0, dropped: 0, plan_to_watch: 0 };
      for (const entry of entries.values()) by_status[entry.status] += 1;
      return json(200, { total: entries.size, by_status, mean_score: null, score_histogram: {}, progress_total: 0, completed_by_year: {} });
    })
    .on('PATCH', /^\/api\/v1\/movies\/list\/([0-9a-f]{24})$/, (request, [, id]) => {
      const body = request.body as Record<string, unknown>;
      if (body['finished_at'] === '2000-01-01') return apiError(400, 'validation_failed', 'invalid', { details: [{ path: 'finished_at', message: 'must not be before started_at' }] });
      const updated = { ...entries.get(id!)!, ...body };
      entries.set(id!, updated);
      return json(200, updated);
    })
    .on('POST', '/api/v1/movies/bulk-status', (request) => {
      const { item_ids, status } = request.body as { item_ids: string[]; status: string };
      for (const id of item_ids) entries.set(id, { ...entries.get(id)!, status });
      return json(200, { updated: item_ids.length, not_found: [] });
    })
    .on('POST', '/api/v1/movies/bulk-delete', (request) => {
      const { item_ids } = request.body as { item_ids: string[] };
      for (const id of item_ids) entries.delete(id);
      return json(200, { deleted: item_ids.length, not_found: [] });
    })
    .on('GET', /^\/api\/v1\/movies\/list\/([0-9a-f]{24})\/history$/, (_request, [, id]) =>
      json(200, id === C ? [{ at: '2026-01-02T10:00:00.000Z', field: 'status', from: 'watching', to: 'completed' }] : []),
    )
    .on('POST', '/api/v1/movies/list', (request) => {
      const body = request.body as { item_id: string };
      entries.set(body.item_id, { ...listEntry(body.item_id, body.item_id === A ? 'Alien' : 'Heat'), ...body });
      return json(201, entries.get(body.item_id));
    });
  return { server, entries };
}

const statuses = (entries: Map<string, { status: string }>) => Object.fromEntries([...entries].map(([id, e]) => [id, e.status]));

describe('my list', () => {
  it("shows an entry's history under its editor", async () => {
    const { server } = listServer();
    renderApp(server, '/movies/list');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Zodiac' }));
    const history = await screen.findByRole('region', { name: 'History' });
    expect((await within(history).findByRole('listitem')).lastElementChild?.textContent).toBe('Status: In progress → Completed');
    await user.click(screen.getByRole('button', { name: 'Edit Heat' }));
    await waitFor(() => expect(screen.getAllByRole('region', { name: 'History' })).toHaveLength(2));
    expect(await screen.findByText('No changes recorded yet.')).toBeTruthy();
  });

  it('changes one status in its row, then undoes it', async () => {
    const { server, entries } = listServer();
    renderApp(server, '/movies/list');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Status of Heat'), 'completed');
    expect(server.sent('PATCH', `/api/v1/movies/list/${B}`)[0]?.body).toEqual({ status: 'completed' });
    const notice = await screen.findByText('“Heat” moved to Completed.');
    await user.click(within(notice.parentElement!).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(entries.get(B)?.status).toBe('plan_to_watch'));
    expect(server.sent('PATCH', `/api/v1/movies/list/${B}`)[1]?.body).toEqual({ status: 'plan_to_watch' });
  });

  it('edits every field in place, sending only what changed, and shows a field error next to its field', async () => {
    const { server } = listServer();
    renderApp(server, '/movies/list');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Zodiac' }));
    const editor = screen.getByRole('form', { name: 'Edit Zodiac' });
    // One status select while editing: the editor's.
    expect(screen.queryByLabelText('Status of Zodiac')).toBeNull();
    await user.selectOptions(within(editor).getByLabelText('Score'), '9');
    await user.clear(within(editor).getByLabelText('Notes'));
    await user.type(within(editor).getByLabelText('Progress'), '157');
    await user.type(within(editor).getByLabelText('Finished'), '2000-01-01');
    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    const finished = within(editor).getByLabelText('Finished');
    await waitFor(() => expect(finished.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(finished.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe('Must not be before started_at.');
    expect(server.sent('PATCH', `/api/v1/movies/list/${C}`)[0]?.body).toEqual({ score: 9, notes: null, progress: 157, finished_at: '2000-01-01' });
    // What was typed is still there to correct.
    expect((within(editor).getByLabelText('Progress') as HTMLInputElement).value).toBe('157');
    await user.clear(finished);
    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Zodiac' })).toBeNull());
    expect(server.sent('PATCH', `/api/v1/movies/list/${C}`)[1]?.body).toEqual({ score: 9, notes: null, progress: 157 });
    expect(screen.getByText(/9\/10/)).toBeTruthy();
    // Closed with Save: focus is back on the button that opened the editor, not lost to <body>.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit Zodiac' })));
  });

  it('gives the focus back to the Edit button when Escape closes the editor', async () => {
    const { server } = listServer();
    renderApp(server, '/movies/list');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Zodiac' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Zodiac' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit Zodiac' })));
  });

  it('counts the entries of each status on its tab, and shows the list as a grid of pictures', async () => {
    const { server } = listServer();
    renderApp(server, '/movies/list');
    const user = userEvent.setup();
    expect(await screen.findByRole('tab', { name: 'All (3)' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Grid' }));
    const grid = await screen.findByRole('list', { name: 'My movies' });
    expect(grid.className).toContain('cards--posters');
    expect(within(grid).getAllByRole('listitem')).toHaveLength(3);
  });

  it('sets the status of every selected entry in one request, and Undo restores each one', async () => {
    const { server, entries } = listServer();
    renderApp(server, '/movies/list');
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Select all on this page'));
    const bar = screen.getByRole('region', { name: 'Selected entries' });
    expect(within(bar).getByText('3 selected')).toBeTruthy();
    await user.selectOptions(within(bar).getByLabelText('Set status'), 'on_hold');
    await user.click(within(bar).getByRole('button', { name: 'Apply' }));
    const notice = await screen.findByText('3 entries set to On hold.');
    expect(server.sent('POST', '/api/v1/movies/bulk-status')[0]?.body).toEqual({ item_ids: [A, B, C], status: 'on_hold' });
    expect(statuses(entries)).toEqual({ [A]: 'on_hold', [B]: 'on_hold', [C]: 'on_hold' });
    await user.click(within(notice.parentElement!).getByRole('button', { name: 'Undo' }));
    await screen.findByText('Statuses restored.');
    expect(statuses(entries)).toEqual({ [A]: 'watching', [B]: 'plan_to_watch', [C]: 'completed' });
  });

  it('deletes the selection only after a confirmation, and Undo adds the entries back as they were', async () => {
    const { server, entries } = listServer();
    renderApp(server, '/movies/list');
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Select Heat'));
    await user.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 1 entry?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.sent('POST', '/api/v1/movies/bulk-delete')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete…' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete 1 entry?' })).getByRole('button', { name: 'Delete' }));
    const notice = await screen.findByText('1 entry deleted from your list.');
    expect(entries.has(B)).toBe(false);
    await user.click(within(notice.parentElement!).getByRole('button', { name: 'Undo' }));
    await screen.findByText('Entries restored.');
    expect(server.sent('POST', '/api/v1/movies/list')[0]?.body).toEqual({
      item_id: B,
      status: 'plan_to_watch',
      score: 7,
      progress: null,
      notes: null,
      started_at: null,
      finished_at: null,
    });
  });

  it('filters by status tab from the keyboard and keeps the tab in the URL', async () => {
    const { server } = listServer();
    const app = renderApp(server, '/movies/list');
    const user = userEvent.setup();
    const all = await screen.findByRole('tab', { name: 'All' });
    await screen.findByRole('link', { name: 'Zodiac' });
    act(() => all.focus());
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(app.location()).toBe('/movies/list?status=watching'));
    expect(document.activeElement?.textContent).toBe('In progress (1)');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Zodiac' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Alien' })).toBeTruthy();
  });

  it('says so when the list is empty', async () => {
    const server = baseServer().on('GET', '/api/v1/movies/list', () => json(200, page([])));
    renderApp(server, '/movies/list');
    expect(await screen.findByText('Your movies list is empty.')).toBeTruthy();
  });
});
