import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Hook, InboxEntry } from '../../api/hook-calls';
import { apiError, baseServer, json, page } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const HOOK_ID = '1'.repeat(24);
const ITEM = '2'.repeat(24);
const SECRET_URL = 'http://127.0.0.1:8080/api/v1/scrobble/jellyfin/s3cr3t';

function hooksServer() {
  const hooks: Hook[] = [];
  const inbox: InboxEntry[] = [
    { id: '3'.repeat(24), hook_id: HOOK_ID, server: 'jellyfin', category: 'tvshows', title: 'Severance', year: 2022, season: 1, number: 2, external_ids: { tvdb: '9' }, first_seen_at: '2026-11-20T20:00:00.000Z', last_seen_at: '2026-11-20T21:00:00.000Z', count: 2 },
  ];
  const server = baseServer()
    .on('GET', '/api/v1/scrobble/hooks', () => json(200, hooks))
    .on('POST', '/api/v1/scrobble/hooks', (request) => {
      const body = request.body as { server: Hook['server']; name: string; usernames?: string[]; threshold?: number };
      if (body.threshold !== undefined && body.threshold < 50) return apiError(400, 'validation_failed', 'invalid', { details: [{ path: 'threshold', message: 'must be at least 50' }] });
      if (hooks.length >= 1) return apiError(409, 'conflict', 'at most 20 hooks per user');
      const hook: Hook = { id: HOOK_ID, server: body.server, name: body.name, usernames: body.usernames ?? [], threshold: body.threshold ?? 90, created_at: '2026-11-20T20:00:00.000Z', last_event_at: null };
      hooks.push(hook);
      return json(201, { ...hook, url: SECRET_URL });
    })
    .on('DELETE', `/api/v1/scrobble/hooks/${HOOK_ID}`, () => {
      hooks.splice(0);
      return json(200, { message: 'deleted' });
    })
    .on('GET', '/api/v1/scrobble/unmatched', () => json(200, inbox))
    .on('GET', '/api/v1/tvshows', (request) => json(200, page(request.query.get('q') === 'Severance' ? [{ id: ITEM, title: 'Severance', year: 2022, genres: [] }] : [])))
    .on('POST', /^\/api\/v1\/scrobble\/unmatched\/3{24}\/resolve$/, () => {
      inbox.splice(0);
      return json(200, { recorded: 2 });
    })
    .on('DELETE', /^\/api\/v1\/scrobble\/unmatched\/3{24}$/, () => {
      inbox.splice(0);
      return json(200, { message: 'dismissed' });
    });
  return { server, hooks };
}

describe('connections', () => {
  it('creates a Jellyfin connection and shows its URL once, with the setup steps', async () => {
    const { server, hooks } = hooksServer();
    renderApp(server, '/connections/jellyfin');
    const user = userEvent.setup();
    expect((await screen.findByRole('region', { name: 'Set it up' })).textContent).toContain('Add Generic Destination');
    await user.type(screen.getByLabelText('Only these Jellyfin users'), 'ada, bob');
    await user.click(screen.getByRole('button', { name: 'Create connection' }));
    expect(server.sent('POST', '/api/v1/scrobble/hooks')[0]?.body).toEqual({ server: 'jellyfin', name: 'Jellyfin', usernames: ['ada', 'bob'], threshold: 90 });
    expect((await screen.findByLabelText('URL for Jellyfin')).textContent).toBe(SECRET_URL);
    expect(await screen.findByText('No event received yet')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByText(SECRET_URL)).toBeNull();
    expect(hooks).toHaveLength(1);
  });

  it("shows each refusal next to what caused it: the threshold's field, the form for the limit", async () => {
    const { server } = hooksServer();
    renderApp(server, '/connections/plex');
    const user = userEvent.setup();
    const threshold = await screen.findByLabelText('Counts as watched from (%)');
    await user.clear(threshold);
    await user.type(threshold, '20');
    await user.click(screen.getByRole('button', { name: 'Create connection' }));
    expect(await screen.findByText('Must be at least 50.')).toBeTruthy();
    expect(threshold.getAttribute('aria-invalid')).toBe('true');
    await user.clear(threshold);
    await user.type(threshold, '95');
    await user.click(screen.getByRole('button', { name: 'Create connection' }));
    await user.click(await screen.findByRole('button', { name: 'I have copied it' }));
    await user.click(screen.getByRole('button', { name: 'Create connection' }));
    expect((await screen.findByRole('alert')).textContent).toBe('At most 20 hooks per user.');
  });

  it('deletes a connection after asking', async () => {
    const { server, hooks } = hooksServer();
    hooks.push({ id: HOOK_ID, server: 'emby', name: 'Den', usernames: [], threshold: 90, created_at: '2026-11-20T20:00:00.000Z', last_event_at: '2026-11-21T20:00:00.000Z' });
    renderApp(server, '/connections/emby');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Den' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(hooks).toHaveLength(0));
    expect(await screen.findByText('No Emby connection yet.')).toBeTruthy();
  });

  it('resolves an unmatched play by picking the show', async () => {
    const { server } = hooksServer();
    renderApp(server, '/connections');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resolve Severance (2022) S1 · E2' }));
    await user.click(await screen.findByRole('button', { name: 'Severance (2022)' }));
    expect(server.sent('POST', /resolve$/)[0]?.body).toEqual({ item_id: ITEM });
    expect(await screen.findByText('“Severance (2022) S1 · E2” is “Severance” now: 2 plays recorded.')).toBeTruthy();
    expect(await screen.findByText(/Nothing waiting/)).toBeTruthy();
  });

  it('dismisses an unmatched play on its server screen', async () => {
    const { server } = hooksServer();
    renderApp(server, '/connections/jellyfin');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Dismiss Severance (2022) S1 · E2' }));
    expect(await screen.findByText(/Nothing waiting/)).toBeTruthy();
    expect(server.sent('DELETE', /unmatched/)).toHaveLength(1);
  });

  it('lists each server with whether it is connected', async () => {
    const { server, hooks } = hooksServer();
    hooks.push({ id: HOOK_ID, server: 'plex', name: 'Home', usernames: [], threshold: 90, created_at: '2026-11-20T20:00:00.000Z', last_event_at: null });
    renderApp(server, '/connections');
    const plex = (await screen.findByRole('link', { name: 'Plex' })).closest('li')!;
    await waitFor(() => expect(plex.textContent).toContain('1 connection · no event yet'));
    expect(screen.getByRole('link', { name: 'Jellyfin' }).closest('li')!.textContent).toContain('Not connected');
  });
});
