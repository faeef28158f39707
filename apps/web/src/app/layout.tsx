import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useCategories } from '../categories/categories';
import { NoticeArea } from '../ui/notice-area';
import { useServices, useSession } from './services';

/** Moves focus to the new screen's heading after a navigation, as a page load would for a screen reader. */
function useFocusOnNavigate(location: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const frame = requestAnimationFrame(() => document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: false }));
    return () => cancelAnimationFrame(frame);
  }, [location]);
}

export function Layout({ children }: { children: ReactNode }) {
  const session = useSession();
  const { session: store } = useServices();
  const { categories } = useCategories();
  const [location, navigate] = useLocation();
  useFocusOnNavigate(location);
  const current = location.split('/')[1];

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <div className="top__inner">
          <Link href="/" className="brand">
            Media Tracker
          </Link>
          <nav aria-label="Categories" className="top__categories">
            <ul>
              {categories.map((category) => (
                <li key={category.id}>
                  <Link href={`/${category.id}`} aria-current={current === category.id ? 'page' : undefined}>
                    {category.display_name}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <nav aria-label="Account" className="top__account">
            {session ? (
              <ul>
                <li>
                  <Link href="/account" aria-current={location === '/account' ? 'page' : undefined}>
                    <span className="visually-hidden">Account of </span>
                    {session.user.username}
                  </Link>
                </li>
                <li>
                  <Link href="/connections" aria-current={location.startsWith('/connections') ? 'page' : undefined}>
                    Connections
                  </Link>
                </li>
                <li>
                  <Link href="/tokens" aria-current={location === '/tokens' ? 'page' : undefined}>
                    Tokens
                  </Link>
                </li>
                <li>
                  <button
                    type="button"
                    className="linklike"
                    onClick={() => {
                      store.end('logged_out');
                      navigate('/login');
                    }}
                  >
                    Log out
                  </button>
                </li>
              </ul>
            ) : (
              <ul>
                <li>
                  <Link href="/login">Log in</Link>
                </li>
                <li>
                  <Link href="/register">Register</Link>
                </li>
              </ul>
            )}
          </nav>
        </div>
      </header>
      <main id="main" className="main">
        {children}
      </main>
      <footer className="footer">
        {/* A plain link: the documentation is the gateway's own page, outside this app. */}
        <a href="/api/v1/docs">API documentation</a>
      </footer>
      <NoticeArea />
    </>
  );
}
