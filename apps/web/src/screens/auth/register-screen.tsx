import { useState } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { safeNext } from '../../app/navigation';
import { ScreenTitle } from '../../app/screen-title';
import { useApi, useServices } from '../../app/services';
import { useSubmit } from '../../api/use-submit';
import { sessionFromLogin } from '../../session/session-store';
import { Field, FormError } from '../../ui/field';

export function RegisterScreen() {
  const api = useApi();
  const { session } = useServices();
  const [params] = useSearchParams();
  const [, navigate] = useLocation();
  const next = safeNext(params.get('next'));
  const [form, setForm] = useState({ username: '', email: '', password: '' });
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: event.target.value }));
  const register = useSubmit(async () => {
    const body = { username: form.username.trim(), email: form.email.trim(), password: form.password };
    await api.register(body);
    // Registered means able to log in: straight in, no second form.
    session.start(sessionFromLogin(await api.login({ username: body.username, password: body.password })));
    navigate(next, { replace: true });
  }, { fields: ['username', 'email', 'password'] });

  return (
    <section className="narrow">
      <ScreenTitle title="Create an account">Create an account</ScreenTitle>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void register.submit();
        }}
        noValidate
        className="form"
      >
        <FormError error={register.error?.message} requestId={register.error?.status && register.error.status >= 500 ? register.error.requestId : undefined} />
        <Field label="Username" name="username" error={register.fields['username']} hint="3–32 letters, digits, _ . or -">
          {(control) => <input {...control} autoComplete="username" value={form.username} onChange={set('username')} required />}
        </Field>
        <Field label="Email" name="email" error={register.fields['email']}>
          {(control) => <input {...control} type="email" autoComplete="email" value={form.email} onChange={set('email')} required />}
        </Field>
        <Field label="Password" name="password" error={register.fields['password']} hint="At least 8 characters">
          {(control) => (
            <input {...control} type="password" autoComplete="new-password" value={form.password} onChange={set('password')} required />
          )}
        </Field>
        <button type="submit" className="button button--primary" disabled={register.pending}>
          {register.pending ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p>
        Already have an account? <Link href={next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`}>Log in</Link>
      </p>
    </section>
  );
}
