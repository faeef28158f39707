import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SESSION_KEY } from '../../session/session-store';
import { apiError, baseServer, json, USER } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

describe('the login screen', () => {
  it('says a wrong login plainly, next to the form, and keeps what was typed', async () => {
    const server = baseServer().on('POST', '/api/v1/auth/login', () => apiError(401, 'unauthorized', 'invalid username or password'));
    renderApp(server, '/login', { signedIn: false });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username or email'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong username, email or password.');
    expect((screen.getByLabelText('Username or email') as HTMLInputElement).value).toBe('ada');
    expect(sessionStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('starts the session and goes back to the page that asked for it', async () => {
    const server = baseServer()
      .on('POST', '/api/v1/auth/login', () => json(200, { access_token: 'jwt-new', token_type: 'Bearer', expires_in: 3600, user: USER }))
      .on('GET', '/api/v1/movies/list', () => json(200, { data: [], page: 1, limit: 50, total: 0, total_pages: 0 }));
    const app = renderApp(server, '/login?next=%2Fmovies%2Flist%3Fstatus%3Dwatching', { signedIn: false });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username or email'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(app.location()).toBe('/movies/list?status=watching'));
    expect(server.sent('POST', '/api/v1/auth/login')[0]?.body).toEqual({ username: 'ada', password: 'correct horse' });
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? '{}')).toMatchObject({ token: 'jwt-new', user: { username: 'ada' } });
    await waitFor(() => expect(server.sent('GET', '/api/v1/movies/list')[0]?.authorization).toBe('Bearer jwt-new'));
  });

  it('sends a person who is not signed in to log in first, and never to another site afterwards', async () => {
    const app = renderApp(baseServer(), '/tokens', { signedIn: false });
    await waitFor(() => expect(app.location()).toBe('/login?next=%2Ftokens'));
    const other = renderApp(baseServer(), '/login?next=%2F%2Fevil.example', { signedIn: false });
    expect(other.location()).toBe('/login?next=%2F%2Fevil.example');
  });
});

describe('registration', () => {
  it('shows each field error next to its field', async () => {
    const server = baseServer().on('POST', '/api/v1/auth/register', () =>
      apiError(400, 'validation_failed', 'validation failed', { details: [{ path: 'password', message: 'must be at least 8 characters' }] }),
    );
    renderApp(server, '/register', { signedIn: false });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = password.getAttribute('aria-describedby')?.split(' ') ?? [];
    expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toContain('Must be at least 8 characters.');
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBeNull();
  });

  it('offers the existing username clash in words', async () => {
    const server = baseServer().on('POST', '/api/v1/auth/register', () => apiError(409, 'conflict', 'username already taken'));
    renderApp(server, '/register', { signedIn: false });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'long enough');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Username already taken.');
  });
});
