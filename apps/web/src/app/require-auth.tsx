import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { loginPath } from './navigation';
import { useSession } from './services';

/** A screen of the signed-in person: without a session, log in first and come back here. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const [location] = useLocation();
  const search = useSearch();
  if (!session) return <Redirect to={loginPath(search ? `${location}?${search}` : location)} replace />;
  return <>{children}</>;
}
