import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { baseServer, json } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const SCOPES = ['profile:read', 'catalog:write', 'list:read', 'list:write', 'account'];
const SECRET = 'mtp_abcdefghijklmnopqrstuvwxyz012345000000';

describe('access tokens', () => {
  it('creates a token with the chosen scopes and expiry, shows its secret once with a copy button, and lists it', async () => {
    const tokens: Array<Record<string, unknown>> = [];
    const server = baseServer()
      .on('GET', '/api/v1/openapi.json', () => json(200, { components: { schemas: { Scope: { type: 'string', enum: SCOPES } } } }))
      .on('GET', '/api/v1/auth/tokens', () => json(200, tokens))
      .on('POST', '/api/v1/auth/tokens', (request) => {
        const body = request.body as { name: string; scopes: string[] };
        const meta = { id: '1'.repeat(24), name: body.name, prefix: SECRET.slice(0, 8), scopes: body.scopes, created_at: '2026-01-01T00:00:00.000Z', expires_at: '2026-02-01T00:00:00.000Z', last_used_at: null };
        tokens.push(meta);
        return json(201, { ...meta, token: SECRET });
      });
    renderApp(server, '/tokens');
    // user-event puts a clipboard of its own on navigator.
    const user = userEvent.setup();
    await screen.findByText('No active tokens.');
    // The API's default set is pre-selected: every scope but account.
    expect((await screen.findByRole('checkbox', { name: /^account/ }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('checkbox', { name: /^list:write/ }) as HTMLInputElement).checked).toBe(true);
    await user.type(screen.getByLabelText('Name'), 'backup');
    await user.click(screen.getByRole('checkbox', { name: /^catalog:write/ }));
    await user.selectOptions(screen.getByLabelText('Expires after'), '30');
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    expect((await screen.findByLabelText('Token secret')).textContent).toBe(SECRET);
    expect(server.sent('POST', '/api/v1/auth/tokens')[0]?.body).toEqual({ name: 'backup', scopes: ['profile:read', 'list:read', 'list:write'], expires_in_days: 30 });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Copied to the clipboard.')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await user.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByText(SECRET)).toBeNull();
    const row = await screen.findByRole('row', { name: /backup/ });
    expect(within(row).getByText(`${SECRET.slice(0, 8)}…`)).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
  });

  it('revokes a token after a confirmation', async () => {
    let tokens = [{ id: '2'.repeat(24), name: 'old script', prefix: 'mtp_old1', scopes: ['list:read'], created_at: '2026-01-01T00:00:00.000Z', expires_at: '2026-02-01T00:00:00.000Z', last_used_at: '2026-01-02T00:00:00.000Z' }];
    const server = baseServer()
      .on('GET', '/api/v1/openapi.json', () => json(200, { components: { schemas: { Scope: { enum: SCOPES } } } }))
      .on('GET', '/api/v1/auth/tokens', () => json(200, tokens))
      .on('DELETE', /^\/api\/v1\/auth\/tokens\/2+$/, () => {
        tokens = [];
        return json(200, { message: 'revoked' });
      });
    renderApp(server, '/tokens');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke old script' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No active tokens.')).toBeTruthy();
    await waitFor(() => expect(server.sent('DELETE', /tokens/)).toHaveLength(1));
  });
});
