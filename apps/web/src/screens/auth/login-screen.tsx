import { sessionFromLogin } from '../../session/session-store';
import { useState } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { safeNext } from '../../app/navigation';
import { ScreenTitle } from '../../app/screen-title';
import { useApi, useServices } from '../../app/services';
import { useSubmit } from '../../api/use-submit';
import { Field, FormError } from '../../ui/field';

const ENDED_NOTE: Record<string, string | undefined> = {
  expired: 'Your session has ended. Log in again to carry on where you were.',
  deleted: 'Your account has been deleted.',
  logged_out: 'You have logged out.',
};

export function LoginScreen() {
  const api = useApi();
  const { session } = useServices();
  const [params] = useSearchParams();
  const [, navigate] = useLocation();
  const next = safeNext(params.get('next'));
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useSubmit(async () => {
    const answer = await api.login({ username: username.trim(), password });
    session.start(sessionFromLogin(answer));
    navigate(next, { replace: true });
  }, { fields: ['username', 'password'] });
  const note = ENDED_NOTE[session.ended()];
  // A wrong login is one indistinguishable 401 (docs/api.md "Authentication"): say so plainly, next to the form.
  const message = login.error?.status === 401 ? 'Wrong username, email or password.' : login.error?.message;

  return (
    <section className="narrow">
      <ScreenTitle title="Log in">Log in</ScreenTitle>
      {note && <p className="note">{note}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void login.submit();
        }}
        noValidate
        className="form"
      >
        <FormError error={message} requestId={login.error?.status && login.error.status >= 500 ? login.error.requestId : undefined} />
        <Field label="Username or email" name="username" error={login.fields['username']}>
          {(control) => (
            <input {...control} autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required />
          )}
        </Field>
        <Field label="Password" name="password" error={login.fields['password']}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          )}
        </Field>
        <button type="submit" className="button button--primary" disabled={login.pending}>
          {login.pending ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <p>
        New here? <Link href={next === '/' ? '/register' : `/register?next=${encodeURIComponent(next)}`}>Create an account</Link>
      </p>
    </section>
  );
}

