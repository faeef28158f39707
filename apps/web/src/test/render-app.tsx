import { render } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createWebApi } from '../api/web-api';
import { App } from '../app/app';
import type { Services } from '../app/services';
import { createReauthenticator } from '../session/reauth';
import { createSessionStore, SESSION_KEY } from '../session/session-store';
import { createNotices } from '../ui/notices';
import { USER, type FakeServer } from './fake-server';

export interface RenderedApp {
  services: Services;
  /** The path (and query) the app is showing. */
  location: () => string;
}

/** The whole app at `path`, talking to the fake server, signed in unless told otherwise. */
export function renderApp(server: FakeServer, path: string, options: { signedIn?: boolean } = {}): RenderedApp {
  if (options.signedIn !== false)
    sessionStorage.setItem(SESSION_KEY, JSON.stringify({ token: 'jwt-1', expiresAt: Date.now() + 3_600_000, user: USER }));
  const session = createSessionStore(sessionStorage);
  const reauth = createReauthenticator();
  const notices = createNotices();
  const api = createWebApi({ session, reauth, fetch: server.fetch });
  const services: Services = { api, session, reauth, notices };
  const [pathname, search = ''] = path.split('?');
  const memory = memoryLocation({ path: `${pathname}${search ? `?${search}` : ''}`, record: true });
  render(
    <Router hook={memory.hook} searchHook={memory.searchHook}>
      <App services={services} />
    </Router>,
  );
  return { services, location: () => memory.history.at(-1) ?? '' };
}
