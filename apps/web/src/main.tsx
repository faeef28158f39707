import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createWebApi } from './api/web-api';
import { App } from './app/app';
import type { Services } from './app/services';
import { createReauthenticator } from './session/reauth';
import { createSessionStore } from './session/session-store';
import { createNotices } from './ui/notices';
import './styles/app.css';

const session = createSessionStore();
const reauth = createReauthenticator();
const notices = createNotices();
const api = createWebApi({
  session,
  reauth,
  onRateLimitWait: (seconds) => notices.show({ text: `Busy: trying again in ${seconds} s…`, tone: 'info' }, seconds * 1000),
});
const services: Services = { api, session, reauth, notices };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App services={services} />
  </StrictMode>,
);
