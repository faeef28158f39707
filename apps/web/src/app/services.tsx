import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { WebApi } from '../api/web-api';
import type { Reauthenticator } from '../session/reauth';
import type { Session, SessionStore } from '../session/session-store';
import type { Notices } from '../ui/notices';

/** What every screen may use: the API client, the session, the re-login dialog's broker, the notice area. */
export interface Services {
  api: WebApi;
  session: SessionStore;
  reauth: Reauthenticator;
  notices: Notices;
}

const ServicesContext = createContext<Services | undefined>(undefined);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside ServicesProvider');
  return services;
}

export const useApi = () => useServices().api;

/** The current session, re-rendering on login, renewal and logout. */
export function useSession(): Session | undefined {
  const { session } = useServices();
  return useSyncExternalStore(session.subscribe, session.current, session.current);
}
