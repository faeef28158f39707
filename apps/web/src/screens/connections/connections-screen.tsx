import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { createHook, deleteHook, listHooks, SERVERS, type CreatedHook, type Hook, type Server } from '../../api/hook-calls';
import { useSubmit } from '../../api/use-submit';
import { ScreenTitle } from '../../app/screen-title';
import { useApi, useServices } from '../../app/services';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Field, FormError, LoadError } from '../../ui/field';
import { formatTime } from '../../ui/format-time';
import { SecretOnce } from '../../ui/secret-once';
import { EmptyState, Loading } from '../../ui/status';
import { NotFoundScreen } from '../not-found-screen';
import { Inbox } from './inbox';
import { SERVER_GUIDES } from './server-guides';

type Loaded = { state: 'loading' } | { state: 'done'; hooks: Hook[] } | { state: 'error'; error: DescribedError };

const DEFAULT_THRESHOLD = 90;
const isServer = (value: string | undefined): value is Server => (SERVERS as readonly string[]).includes(value ?? '');

function useHooks() {
  const api = useApi();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  useEffect(() => {
    const controller = new AbortController();
    listHooks(api, controller.signal).then(
      (hooks) => !controller.signal.aborted && setLoaded({ state: 'done', hooks }),
      (error: unknown) => !isAbort(error) && !controller.signal.aborted && setLoaded({ state: 'error', error: describeError(error) }),
    );
    return () => controller.abort();
  }, [api, reloads]);
  return { loaded, reload };
}

/** `/connections`: each media server with its connections, and the plays that matched nothing. */
export function ConnectionsScreen() {
  const { server } = useParams<{ server?: string }>();
  if (server !== undefined) return isServer(server) ? <ServerScreen server={server} /> : <NotFoundScreen what="media server" />;
  return <Overview />;
}

function Overview() {
  const { loaded, reload } = useHooks();
  return (
    <section className="connections">
      <ScreenTitle title="Connections">Connections</ScreenTitle>
      <p className="home__intro">Connect your media server and what you watch there is recorded on your lists, without typing: films and episodes you finish become plays, what you start moves to watching.</p>
      {loaded.state === 'error' && <LoadError error={loaded.error} onRetry={reload} />}
      <ul className="cards cards--grid">
        {SERVERS.map((server) => {
          const hooks = loaded.state === 'done' ? loaded.hooks.filter((hook) => hook.server === server) : [];
          const last = hooks.map((hook) => hook.last_event_at).filter((at): at is string => at !== null).sort().at(-1);
          return (
            <li key={server} className="card">
              <Link href={`/connections/${server}`} className="card__title">
                {SERVER_GUIDES[server].name}
              </Link>
              <span className="card__meta">{SERVER_GUIDES[server].summary}</span>
              {loaded.state === 'done' && (
                <span className="card__meta">
                  {hooks.length === 0 ? 'Not connected' : `${hooks.length === 1 ? '1 connection' : `${hooks.length} connections`} · ${last ? `last event ${formatTime(last)}` : 'no event yet'}`}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <Inbox />
    </section>
  );
}

function ServerScreen({ server }: { server: Server }) {
  const api = useApi();
  const { notices } = useServices();
  const guide = SERVER_GUIDES[server];
  const { loaded, reload } = useHooks();
  const [created, setCreated] = useState<CreatedHook | null>(null);
  const [removing, setRemoving] = useState<Hook | null>(null);
  const remove = useSubmit(async (hook: Hook) => {
    await deleteHook(api, hook.id);
    setRemoving(null);
    reload();
    notices.show({ text: `“${hook.name}” disconnected: its URL no longer works.`, tone: 'info' });
  });
  const hooks = loaded.state === 'done' ? loaded.hooks.filter((hook) => hook.server === server) : [];

  return (
    <section className="connections">
      <ScreenTitle title={`${guide.name} · Connections`}>{guide.name}</ScreenTitle>
      <nav aria-label="Media servers" className="subnav">
        <ul>
          <li>
            <Link href="/connections">All connections</Link>
          </li>
          {SERVERS.map((other) => (
            <li key={other}>
              <Link href={`/connections/${other}`} aria-current={other === server ? 'page' : undefined}>
                {SERVER_GUIDES[other].name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section className="connections__section" aria-labelledby="setup-title">
        <h2 id="setup-title">Set it up</h2>
        <ol className="steps">
          <li>Create a connection below: you get its URL, once.</li>
          {guide.steps.map((step, index) => (
            <li key={index}>{step}</li>
          ))}
        </ol>
      </section>
      {created && (
        <SecretOnce title={`Connection “${created.name}” created`} value={created.url} valueLabel={`URL for ${guide.name}`} onDone={() => setCreated(null)}>
          <p>Copy this URL into {guide.name} now: it holds the connection’s secret and is shown only this once. Lost it? Delete the connection and create another.</p>
        </SecretOnce>
      )}
      <CreateHookForm
        server={server}
        onCreated={(hook) => {
          setCreated(hook);
          reload();
        }}
      />
      <section className="connections__section" aria-labelledby="hooks-title">
        <h2 id="hooks-title">Your {guide.name} connections</h2>
        {loaded.state === 'loading' && <Loading rows={2} label="Loading your connections…" />}
        {loaded.state === 'error' && <LoadError error={loaded.error} onRetry={reload} />}
        {loaded.state === 'done' && hooks.length === 0 && <EmptyState title={`No ${guide.name} connection yet.`} />}
        {hooks.length > 0 && (
          <ul className="list">
            {hooks.map((hook) => (
              <li key={hook.id} className="hook">
                <div>
                  <strong>{hook.name}</strong>
                  <span className="card__meta">
                    {' '}
                    · {hook.usernames.length ? `only ${hook.usernames.join(', ')}` : 'every user'} · counts from {hook.threshold}% watched
                  </span>
                  <p className="card__meta">{hook.last_event_at ? `Last event ${formatTime(hook.last_event_at)}` : 'No event received yet'}</p>
                </div>
                <button type="button" className="button button--small button--danger" onClick={() => setRemoving(hook)} aria-label={`Delete ${hook.name}`}>
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Inbox server={server} />
      <ConfirmDialog
        open={removing !== null}
        title={`Delete “${removing?.name ?? ''}”?`}
        confirmLabel="Delete"
        danger
        busy={remove.pending}
        onConfirm={() => removing && void remove.submit(removing)}
        onCancel={() => setRemoving(null)}
      >
        <p>Its URL stops working at once; {guide.name} can no longer record plays through it. Plays already recorded stay.</p>
        <FormError error={remove.error?.message} requestId={remove.error?.requestId} />
      </ConfirmDialog>
    </section>
  );
}

const HOOK_FIELDS = ['name', 'usernames', 'threshold'] as const;

function CreateHookForm({ server, onCreated }: { server: Server; onCreated: (hook: CreatedHook) => void }) {
  const api = useApi();
  const guide = SERVER_GUIDES[server];
  const [form, setForm] = useState({ name: guide.name, usernames: '', threshold: String(DEFAULT_THRESHOLD) });
  const create = useSubmit(
    async () => {
      const usernames = form.usernames
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const threshold = Number(form.threshold);
      const hook = await createHook(api, { server, name: form.name.trim(), ...(usernames.length ? { usernames } : {}), threshold: Number.isFinite(threshold) ? threshold : DEFAULT_THRESHOLD });
      onCreated(hook);
    },
    { fields: HOOK_FIELDS },
  );
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: event.target.value }));
  return (
    <form
      className="form connections__section"
      aria-labelledby="create-hook-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void create.submit();
      }}
    >
      <h2 id="create-hook-title">New {guide.name} connection</h2>
      <Field label="Name" name="name" error={create.fields['name']} hint="So you can tell your connections apart.">
        {(control) => <input {...control} value={form.name} onChange={set('name')} maxLength={100} required />}
      </Field>
      <Field label={`Only these ${guide.name} users`} name="usernames" error={create.fields['usernames']} hint="Names separated by commas; empty: every user of the server.">
        {(control) => <input {...control} value={form.usernames} onChange={set('usernames')} autoComplete="off" />}
      </Field>
      <Field label="Counts as watched from (%)" name="threshold" error={create.fields['threshold']} hint="A stop at this share of the runtime or later records a play (50–100).">
        {(control) => <input {...control} type="number" inputMode="numeric" min={50} max={100} value={form.threshold} onChange={set('threshold')} />}
      </Field>
      <FormError error={create.error?.message} requestId={create.error?.requestId} />
      <button type="submit" className="button button--primary" disabled={create.pending}>
        {create.pending ? 'Creating…' : 'Create connection'}
      </button>
    </form>
  );
}
