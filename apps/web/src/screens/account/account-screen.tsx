import { useState } from 'react';
import { useLocation } from 'wouter';
import { useSubmit } from '../../api/use-submit';
import { ScreenTitle } from '../../app/screen-title';
import { useApi, useServices, useSession } from '../../app/services';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Field, FormError } from '../../ui/field';

function ProfileForm() {
  const api = useApi();
  const { session: store, notices } = useServices();
  const user = useSession()?.user;
  const [form, setForm] = useState({ username: user?.username ?? '', email: user?.email ?? '' });
  const save = useSubmit(async () => {
    const body: { username?: string; email?: string } = {};
    if (form.username.trim() !== user?.username) body.username = form.username.trim();
    if (form.email.trim().toLowerCase() !== user?.email) body.email = form.email.trim();
    if (!body.username && !body.email) return;
    store.updateUser(await api.updateMe(body));
    notices.show({ text: 'Profile saved.', tone: 'info' });
  }, { fields: ['username', 'email'] });
  return (
    <form
      className="form"
      aria-labelledby="profile-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save.submit();
      }}
    >
      <h2 id="profile-title">Profile</h2>
      <FormError error={save.error?.message} requestId={save.error?.requestId} />
      <Field label="Username" name="username" error={save.fields['username']} hint="3–32 letters, digits, _ . or -">
        {(control) => <input {...control} autoComplete="username" value={form.username} onChange={(e) => setForm((f) => ({ ...f, username: e.target.value }))} />}
      </Field>
      <Field label="Email" name="email" error={save.fields['email']}>
        {(control) => <input {...control} type="email" autoComplete="email" value={form.email} onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))} />}
      </Field>
      <button type="submit" className="button button--primary" disabled={save.pending}>
        {save.pending ? 'Saving…' : 'Save profile'}
      </button>
    </form>
  );
}

function PasswordForm() {
  const api = useApi();
  const { session: store, notices } = useServices();
  const [form, setForm] = useState({ current_password: '', new_password: '' });
  const change = useSubmit(async () => {
    const answer = await api.changePassword(form);
    // Older JWTs stop working (docs/api.md "Authentication"): carry on with the one the change returned.
    store.renew(answer.access_token, answer.expires_in);
    setForm({ current_password: '', new_password: '' });
    notices.show({ text: 'Password changed. Other sessions have been logged out; your access tokens keep working.', tone: 'info' });
  }, { fields: ['current_password', 'new_password'] });
  // 403 = wrong current password (docs/api.md "Account"): it belongs next to that field.
  const currentError = change.error?.status === 403 ? 'The current password is not right.' : change.fields['current_password'];
  return (
    <form
      className="form"
      aria-labelledby="password-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void change.submit();
      }}
    >
      <h2 id="password-title">Password</h2>
      <FormError error={change.error?.status === 403 ? undefined : change.error?.message} requestId={change.error?.requestId} />
      <Field label="Current password" name="current_password" error={currentError}>
        {(control) => (
          <input {...control} type="password" autoComplete="current-password" value={form.current_password} onChange={(e) => setForm((f) => ({ ...f, current_password: e.target.value }))} />
        )}
      </Field>
      <Field label="New password" name="new_password" error={change.fields['new_password']} hint="At least 8 characters">
        {(control) => <input {...control} type="password" autoComplete="new-password" value={form.new_password} onChange={(e) => setForm((f) => ({ ...f, new_password: e.target.value }))} />}
      </Field>
      <button type="submit" className="button button--primary" disabled={change.pending}>
        {change.pending ? 'Changing…' : 'Change password'}
      </button>
    </form>
  );
}

function DeleteAccount() {
  const api = useApi();
  const { session: store } = useServices();
  const user = useSession()?.user;
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useSubmit(async () => {
    await api.deleteMe();
    setOpen(false);
    store.end('deleted');
    navigate('/login', { replace: true });
  });
  return (
    <section className="danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete account</h2>
      <p>Your lists in every category and your access tokens are deleted for good. Catalog entries you added stay in the catalog.</p>
      <FormError error={remove.error?.message} requestId={remove.error?.requestId} />
      <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
        Delete my account…
      </button>
      <ConfirmDialog
        open={open}
        title="Delete your account?"
        confirmLabel="Delete my account"
        danger
        busy={remove.pending}
        canConfirm={typed === user?.username}
        onConfirm={() => void remove.submit()}
        onCancel={() => {
          setOpen(false);
          setTyped('');
        }}
      >
        <p>This cannot be undone. Type your username, {user?.username}, to confirm.</p>
        <Field label="Username" name="confirm-username">
          {(control) => <input {...control} autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />}
        </Field>
        <FormError error={remove.error?.message} />
      </ConfirmDialog>
    </section>
  );
}

export function AccountScreen() {
  return (
    <section className="narrow-wide stack">
      <ScreenTitle title="Account">Account</ScreenTitle>
      <ProfileForm />
      <PasswordForm />
      <DeleteAccount />
    </section>
  );
}
