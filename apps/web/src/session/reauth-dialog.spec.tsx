import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, baseServer, json, listEntry, page, USER } from '../test/fake-server';
import { renderApp } from '../test/render-app';

const A = 'a'.repeat(24);

describe('a JWT refused in the middle of an edit', () => {
  it('asks the same person to log in again over the screen and then saves what they typed', async () => {
    const server = baseServer()
      .on('GET', '/api/v1/movies/list', () => json(200, page([listEntry(A, 'Alien', 'watching')])))
      .on('PATCH', `/api/v1/movies/list/${A}`, (request) =>
        request.authorization === 'Bearer jwt-2' ? json(200, { ...listEntry(A, 'Alien', 'watching'), ...(request.body as object) }) : apiError(401, 'unauthorized', 'token revoked'),
      )
      .on('POST', '/api/v1/auth/login', (request) =>
        (request.body as { password: string }).password === 'right password'
          ? json(200, { access_token: 'jwt-2', token_type: 'Bearer', expires_in: 3600, user: USER })
          : apiError(401, 'unauthorized', 'invalid username or password'),
      );
    const app = renderApp(server, '/movies/list');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Alien' }));
    await user.type(screen.getByLabelText('Notes'), 'Typed before it expired.');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'Log in again' });
    expect((within(dialog).getByLabelText('Username') as HTMLInputElement).value).toBe('ada');
    await user.type(within(dialog).getByLabelText('Password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Log in' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Wrong password.');
    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'right password');
    await user.click(within(dialog).getByRole('button', { name: 'Log in' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Log in again' })).toBeNull());
    expect(await screen.findByText('Typed before it expired.')).toBeTruthy();
    const patches = server.sent('PATCH', `/api/v1/movies/list/${A}`);
    expect(patches.map((p) => [p.authorization, p.body])).toEqual([
      ['Bearer jwt-1', { notes: 'Typed before it expired.' }],
      ['Bearer jwt-2', { notes: 'Typed before it expired.' }],
    ]);
    // The login carried no stale token.
    expect(server.sent('POST', '/api/v1/auth/login').map((r) => r.authorization)).toEqual([null, null]);
    expect(app.services.session.token()).toBe('jwt-2');
  });

  it('ends the session and keeps the way back when the person logs in as someone else', async () => {
    const server = baseServer().on('GET', '/api/v1/movies/list', () => apiError(401, 'unauthorized', 'token expired'));
    const app = renderApp(server, '/movies/list?status=completed');
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Log in again' });
    await user.click(within(dialog).getByRole('button', { name: 'Log in as someone else' }));
    await waitFor(() => expect(app.location()).toBe('/login?next=%2Fmovies%2Flist%3Fstatus%3Dcompleted'));
    expect(app.services.session.current()).toBeUndefined();
    expect(await screen.findByText('Your session has ended. Log in again to carry on where you were.')).toBeTruthy();
  });
});
