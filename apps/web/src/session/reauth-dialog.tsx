import { useState, useSyncExternalStore } from 'react';
import { useLocation, useSearch } from 'wouter';
import { loginPath } from '../app/navigation';
import { useApi, useServices } from '../app/services';
import { UserFacingError } from '../api/describe-error';
import { useSubmit } from '../api/use-submit';
import { Dialog } from '../ui/confirm-dialog';
import { Field, FormError } from '../ui/field';

/**
 * Over whatever screen a refused JWT interrupted: the same person logs in again and the interrupted request
 * goes through, with everything typed still in place. "Log in as someone else" ends the session instead.
 */
export function ReauthDialog() {
  const { reauth, session } = useServices();
  const api = useApi();
  const open = useSyncExternalStore(reauth.subscribe, reauth.pending, reauth.pending);
  const [password, setPassword] = useState('');
  const [location, navigate] = useLocation();
  const search = useSearch();
  const user = session.current()?.user;
  const login = useSubmit(async () => {
    const answer = await api.login({ username: user?.username ?? '', password });
    if (answer.user.id !== user?.id) throw new UserFacingError('That is another account: use “Log in as someone else”.');
    session.renew(answer.access_token, answer.expires_in);
    setPassword('');
    reauth.succeed(answer.access_token);
  }, { fields: ['password'] });
  const giveUp = () => {
    setPassword('');
    reauth.giveUp();
    session.end('expired');
    navigate(loginPath(search ? `${location}?${search}` : location));
  };

  return (
    <Dialog open={open && Boolean(user)} onClose={giveUp} labelledBy="reauth-title" className="dialog--narrow">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void login.submit();
        }}
        noValidate
      >
        <h2 id="reauth-title">Log in again</h2>
        <p>Your session has ended. Log in again to carry on — nothing you typed is lost.</p>
        <FormError
          error={login.error?.status === 401 ? 'Wrong password.' : login.error?.message}
          requestId={login.error?.status && login.error.status >= 500 ? login.error.requestId : undefined}
        />
        <Field label="Username" name="reauth-username">
          {(control) => <input {...control} value={user?.username ?? ''} readOnly autoComplete="username" />}
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
              data-autofocus
            />
          )}
        </Field>
        <div className="dialog__actions">
          <button type="button" className="button" onClick={giveUp}>
            Log in as someone else
          </button>
          <button type="submit" className="button button--primary" disabled={login.pending || !password}>
            {login.pending ? 'Logging in…' : 'Log in'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
