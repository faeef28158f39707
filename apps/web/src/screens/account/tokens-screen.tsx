import type { CreatedToken, CreateTokenRequest, Scope, TokenMetadata } from '@mt/api-client';
import { useCallback, useEffect, useState } from 'react';
import { describeError, type DescribedError } from '../../api/describe-error';
import { openApiDocument, scopesOf } from '../../api/openapi-document';
import { useSubmit } from '../../api/use-submit';
import { ScreenTitle } from '../../app/screen-title';
import { useApi, useServices } from '../../app/services';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Field, FormError } from '../../ui/field';
import { SecretOnce } from '../../ui/secret-once';
import { EmptyState, Loading } from '../../ui/status';

/** What each scope allows, in words (docs/api.md "Authentication"); a scope the app does not know yet is shown by its name. */
const SCOPE_HELP: Record<string, string> = {
  'profile:read': 'Read your profile',
  'catalog:write': 'Add and edit catalog entries',
  'catalog:moderate': 'Correct, merge and delete any catalog entry (moderators)',
  'list:read': 'Read your lists',
  'list:write': 'Change your lists',
  account: 'Manage your account and tokens',
};
/** The API's own default (docs/api.md "Authentication"): every scope but account; moderation is never a default. */
const NOT_BY_DEFAULT = new Set(['account', 'catalog:moderate']);
const EXPIRY_CHOICES = [7, 30, 90, 180, 366];

const formatDate = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : 'Never');

function CreateTokenForm({ onCreated }: { onCreated: (token: CreatedToken) => void }) {
  const api = useApi();
  const [scopes, setScopes] = useState<string[] | undefined>();
  const [form, setForm] = useState<{ name: string; scopes: Set<string>; days: number }>({ name: '', scopes: new Set(), days: 90 });

  useEffect(() => {
    let current = true;
    openApiDocument(api).then(
      (doc) => {
        if (!current) return;
        const known = scopesOf(doc);
        setScopes(known);
        setForm((f) => ({ ...f, scopes: new Set(known.filter((s) => !NOT_BY_DEFAULT.has(s))) }));
      },
      () => current && setScopes(Object.keys(SCOPE_HELP).filter((s) => s !== 'catalog:moderate')),
    );
    return () => {
      current = false;
    };
  }, [api]);

  const create = useSubmit(async () => {
    const body: CreateTokenRequest = { name: form.name.trim(), scopes: [...form.scopes] as Scope[], expires_in_days: form.days };
    const created = await api.createToken(body);
    setForm((f) => ({ ...f, name: '' }));
    onCreated(created);
  }, { fields: ['name', 'scopes', 'expires_in_days'] });

  return (
    <form
      className="form"
      aria-labelledby="create-token-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void create.submit();
      }}
    >
      <h2 id="create-token-title">New token</h2>
      <FormError error={create.error?.message} requestId={create.error?.requestId} />
      <Field label="Name" name="name" error={create.fields['name']} hint="What it is for, e.g. “backup script”">
        {(control) => <input {...control} maxLength={100} value={form.name} onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))} />}
      </Field>
      <fieldset className="scopes" aria-describedby={create.fields['scopes'] ? 'scopes-error' : undefined}>
        <legend>Scopes</legend>
        {!scopes && <Loading rows={2} label="Loading scopes…" />}
        {scopes?.map((scope) => (
          <label key={scope} className="checkbox">
            <input
              type="checkbox"
              name="scopes"
              value={scope}
              checked={form.scopes.has(scope)}
              onChange={(e) =>
                setForm((f) => {
                  const next = new Set(f.scopes);
                  if (e.target.checked) next.add(scope);
                  else next.delete(scope);
                  return { ...f, scopes: next };
                })
              }
            />
            <span>
              <code>{scope}</code> — {SCOPE_HELP[scope] ?? scope}
            </span>
          </label>
        ))}
        {create.fields['scopes'] && (
          <p className="field__error" id="scopes-error">
            {create.fields['scopes']}
          </p>
        )}
      </fieldset>
      <Field label="Expires after" name="expires_in_days" error={create.fields['expires_in_days']}>
        {(control) => (
          <select {...control} value={form.days} onChange={(e) => setForm((f) => ({ ...f, days: Number(e.target.value) }))}>
            {EXPIRY_CHOICES.map((days) => (
              <option key={days} value={days}>
                {days === 366 ? '1 year' : `${days} days`}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit" className="button button--primary" disabled={create.pending || form.scopes.size === 0}>
        {create.pending ? 'Creating…' : 'Create token'}
      </button>
    </form>
  );
}

/** The secret, once: it is not stored anywhere and cannot be shown again. */
function NewSecret({ token, onDone }: { token: CreatedToken; onDone: () => void }) {
  return <SecretOnce title={`Token “${token.name}” created`} value={token.token} valueLabel="Token secret" onDone={onDone} />;
}

export function TokensScreen() {
  const api = useApi();
  const { notices } = useServices();
  const [tokens, setTokens] = useState<{ state: 'loading' } | { state: 'done'; list: TokenMetadata[] } | { state: 'error'; error: DescribedError }>({ state: 'loading' });
  const [secret, setSecret] = useState<CreatedToken | undefined>();
  const [revoking, setRevoking] = useState<TokenMetadata | undefined>();

  const load = useCallback(() => {
    api.listTokens().then(
      (list) => setTokens({ state: 'done', list }),
      (error: unknown) => setTokens({ state: 'error', error: describeError(error) }),
    );
  }, [api]);
  useEffect(load, [load]);

  const revoke = useSubmit(async (token: TokenMetadata) => {
    await api.revokeToken(token.id);
    setRevoking(undefined);
    notices.show({ text: `Token “${token.name}” revoked.`, tone: 'info' });
    load();
  });

  return (
    <section className="narrow-wide stack">
      <ScreenTitle title="Access tokens">Access tokens</ScreenTitle>
      <p>Personal access tokens let scripts and the command-line client use your account. Give each only the scopes it needs.</p>
      {secret ? (
        <NewSecret token={secret} onDone={() => setSecret(undefined)} />
      ) : (
        <CreateTokenForm
          onCreated={(created) => {
            setSecret(created);
            load();
          }}
        />
      )}
      <section aria-labelledby="tokens-title">
        <h2 id="tokens-title">Active tokens</h2>
        {tokens.state === 'loading' && <Loading rows={2} label="Loading your tokens…" />}
        {tokens.state === 'error' && <FormError error={tokens.error.message} requestId={tokens.error.requestId} />}
        {tokens.state === 'done' && tokens.list.length === 0 && <EmptyState title="No active tokens." />}
        {tokens.state === 'done' && tokens.list.length > 0 && (
          <div className="table-scroll">
            <table className="tokens">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Starts with</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.list.map((token) => (
                  <tr key={token.id}>
                    <th scope="row">{token.name}</th>
                    <td data-label="Starts with">
                      <code>{token.prefix}…</code>
                    </td>
                    <td data-label="Scopes">{token.scopes.join(', ')}</td>
                    <td data-label="Created">{formatDate(token.created_at)}</td>
                    <td data-label="Expires">{formatDate(token.expires_at)}</td>
                    <td data-label="Last used">{formatDate(token.last_used_at)}</td>
                    <td>
                      <button type="button" className="button button--small button--danger" aria-label={`Revoke ${token.name}`} onClick={() => setRevoking(token)}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <ConfirmDialog
        open={Boolean(revoking)}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke"
        danger
        busy={revoke.pending}
        onConfirm={() => revoking && void revoke.submit(revoking)}
        onCancel={() => setRevoking(undefined)}
      >
        <p>Anything using this token stops working at once. This cannot be undone.</p>
        <FormError error={revoke.error?.message} requestId={revoke.error?.requestId} />
      </ConfirmDialog>
    </section>
  );
}
