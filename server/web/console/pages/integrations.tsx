/** Integrations: the connector catalog, and per connector the project's connections, their syncs and logs, and the connect form. */
import { useState } from 'preact/hooks';
import type { CatalogConnector, ConnectorCategory, IntegrationConnection, IntegrationSync } from '../../../../src/client/types.js';
import { CopyButton, DataTable, ErrorNotice, Loading, LogLines, PageHeader, ProjectPage, RequireAbility, SecretOnce, SuccessNotice } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { formatDate, formatNumber, plural } from '../format.js';
import { useListActions, useLoad, usePoll } from '../hooks.js';
import { projectHref } from '../router.js';
import { ConnectForm, CredentialsForm, SettingsForm } from './connection-form.js';

const POLL_MS = 1000;
const SYNCS_SHOWN = 5;
/** The GitHub App keeps its own routes and its own page. */
const GITHUB = 'github';

const CATEGORIES: Record<ConnectorCategory, string> = {
  code_host: 'Code hosts',
  content: 'Content systems',
  design: 'Design tools',
  automation: 'Automation',
};

const DIRECTIONS: Record<CatalogConnector['direction'], { label: string; detail: string }> = {
  two_way: { label: 'two-way', detail: 'Source strings come in; translations go back.' },
  import_only: { label: 'import only', detail: 'Source strings come in; translations leave through releases, the CLI or the pull endpoint.' },
};

export function IntegrationsPage(props: { connectorId: string | undefined }) {
  return props.connectorId ? <ConnectorView connectorId={props.connectorId} /> : <CatalogView />;
}

function useCatalog() {
  const { client } = useProject();
  return useLoad(() => client.integrationsCatalog(), [client]);
}

const connectorHref = (projectId: string, c: CatalogConnector) => (c.id === GITHUB ? projectHref(projectId, 'github') : projectHref(projectId, 'integrations', c.id));

function CatalogView() {
  const { can } = useProject();
  const catalog = useCatalog();
  return (
    <ProjectPage
      title="Integrations"
      ability="read"
      intro={
        <p>
          Connectors bring source strings in from where they live and, when two-way, write the translations back. A sync behaves like a file push: only new and
          changed strings are translated, the gates run, and a translation someone edits in the remote system is imported as a human translation and never
          overwritten.
        </p>
      }
    >
      {catalog.loading && !catalog.data ? <Loading what="the connectors" /> : null}
      <ErrorNotice error={catalog.error} title="Connectors unavailable" />
      {can('manage') ? null : <p class="hint">Connecting, and seeing the project's connections, needs the manage ability.</p>}
      {catalog.data ? <Categories connectors={catalog.data} /> : null}
    </ProjectPage>
  );
}

/** Each category's connectors; with `manage`, how many connections each has and how many of them failed. */
function Categories(props: { connectors: CatalogConnector[] }) {
  const { client, can, projectId } = useProject();
  const canManage = can('manage');
  const counts = useLoad(async () => {
    if (!canManage) return new Map<string, IntegrationConnection[]>();
    const framework = props.connectors.filter((c) => c.id !== GITHUB);
    const lists = await Promise.all(framework.map((c) => client.connections(c.id).catch(() => undefined)));
    return new Map(framework.flatMap((c, i) => (lists[i] ? [[c.id, lists[i]] as const] : [])));
  }, [client, canManage, props.connectors]);
  const categories = Object.keys(CATEGORIES) as ConnectorCategory[];
  return (
    <>
      {categories.map((category) => {
        const connectors = props.connectors.filter((c) => c.category === category);
        if (connectors.length === 0) return null;
        const titleId = `category-${category}`;
        return (
          <section class="card" aria-labelledby={titleId} key={category}>
            <h2 id={titleId}>{CATEGORIES[category]}</h2>
            <DataTable label={CATEGORIES[category]} columns={['Connector', 'Direction', 'What it does', 'Change notifications', ...(canManage ? ['Connections'] : [])]}>
              {connectors.map((c) => {
                const connections = counts.data?.get(c.id);
                const failing = connections?.filter((k) => k.status === 'error').length ?? 0;
                return (
                  <tr key={c.id}>
                    <th scope="row">
                      <a href={connectorHref(projectId, c)}>{c.name}</a>
                    </th>
                    <td>
                      <span class="badge status-cancelled" title={DIRECTIONS[c.direction].detail}>
                        {DIRECTIONS[c.direction].label}
                      </span>
                    </td>
                    <td>{c.summary}</td>
                    <td>{c.webhooks ?? 'None: syncs run on the schedule and on demand.'}</td>
                    {canManage ? (
                      <td>
                        {c.id === GITHUB ? <a href={projectHref(projectId, 'github')}>On the GitHub page</a> : connections ? plural(connections.length, 'connection') : '—'}
                        {failing > 0 ? <div class="bad">{failing} failing</div> : null}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </DataTable>
          </section>
        );
      })}
    </>
  );
}

function ConnectorView(props: { connectorId: string }) {
  const { projectId } = useProject();
  const catalog = useCatalog();
  const back = (
    <p>
      <a href={projectHref(projectId, 'integrations')}>← All integrations</a>
    </p>
  );
  if (catalog.loading && !catalog.data) {
    return (
      <>
        <PageHeader title="Integrations">{back}</PageHeader>
        <Loading what="the connector" />
      </>
    );
  }
  const connector = catalog.data?.find((c) => c.id === props.connectorId);
  if (!connector) {
    return (
      <>
        <PageHeader title="Integrations">{back}</PageHeader>
        {catalog.error ? <ErrorNotice error={catalog.error} title="Connectors unavailable" /> : <p>There is no connector with the id {props.connectorId}.</p>}
      </>
    );
  }
  return (
    <>
      <PageHeader title={connector.name}>
        {back}
        <p>{connector.summary}</p>
      </PageHeader>
      <section class="card" aria-labelledby="connector-title">
        <h2 id="connector-title">About this connector</h2>
        <dl class="facts">
          <dt>Kind</dt>
          <dd>{CATEGORIES[connector.category]}</dd>
          <dt>Direction</dt>
          <dd>
            {DIRECTIONS[connector.direction].label}: {DIRECTIONS[connector.direction].detail}
          </dd>
          <dt>Change notifications</dt>
          <dd>{connector.webhooks ?? 'None: syncs run on the schedule and on demand.'}</dd>
        </dl>
      </section>
      {connector.id === GITHUB ? (
        <p>
          The GitHub App is linked on its own page: <a href={projectHref(projectId, 'github')}>GitHub</a>.
        </p>
      ) : (
        <RequireAbility ability="manage">
          {/* Keyed: moving to another connector starts its list, messages and form afresh. */}
          <Connections key={connector.id} connector={connector} />
        </RequireAbility>
      )}
    </>
  );
}

const FINAL_SYNC: ReadonlySet<IntegrationSync['status']> = new Set(['succeeded', 'failed', 'cancelled']);
const isMoving = (c: IntegrationConnection) => c.status === 'syncing' || c.status === 'retrying' || (c.last_sync !== null && !FINAL_SYNC.has(c.last_sync.status));

function Connections(props: { connector: CatalogConnector }) {
  const { client } = useProject();
  const { announce } = useAccount();
  const { connector } = props;
  const list = useLoad(() => client.connections(connector.id), [client, connector.id]);
  const { request, result, setResult, done, run } = useListActions(list.reload);
  const [connected, setConnected] = useState<IntegrationConnection>();

  usePoll(
    async () => {
      const fresh = await client.connections(connector.id);
      for (const c of fresh) {
        const before = list.data?.find((b) => b.id === c.id);
        if (before && isMoving(before) && !isMoving(c)) {
          // "Sync of … queued" is history now: the card says how it ended.
          setResult(undefined);
          announce(`${c.name}: sync ${c.last_sync?.status ?? c.status}.`);
        }
      }
      list.set(fresh);
    },
    POLL_MS,
    list.data?.some(isMoving) ?? false,
  );

  return (
    <section aria-labelledby="connections-title">
      <h2 id="connections-title">Connections</h2>
      {connected?.webhook_secret ? (
        <SecretOnce
          label="Webhook secret"
          value={connected.webhook_secret}
          note={`Shown only this once: copy it now, and give it to ${connector.name} with the webhook URL ${connected.webhook_url}. It is not shown again; the service keeps it encrypted.`}
        />
      ) : null}
      <ErrorNotice error={request.error ?? list.error} title="Not done" />
      <SuccessNotice text={result} />
      {list.loading && !list.data ? <Loading what="connections" /> : null}
      {list.data && list.data.length === 0 ? <p>No connection yet.</p> : null}
      {list.data?.map((c) => (
        <ConnectionCard
          key={c.id}
          connector={connector}
          connection={c}
          run={run}
          onRotated={(updated) => done(`Credentials of ${updated.name} replaced. The next sync uses them.`)}
          onSaved={(updated) => done(`Settings of ${updated.name} saved.`)}
          onRemoved={(removed) => {
            if (connected?.id === removed.id) setConnected(undefined);
          }}
        />
      ))}
      <ConnectForm
        connector={connector}
        onConnected={(created) => {
          setConnected(created);
          done(`${created.name} connected. The first sync has started.`);
        }}
      />
    </section>
  );
}

const CONNECTION_STATUS: Record<IntegrationConnection['status'], { label: string; badge: string }> = {
  never_synced: { label: 'never synced', badge: 'status-cancelled' },
  syncing: { label: 'syncing', badge: 'status-running' },
  ok: { label: 'ok', badge: 'status-completed' },
  retrying: { label: 'retrying', badge: 'status-queued' },
  error: { label: 'error', badge: 'status-failed' },
  disabled: { label: 'disabled', badge: 'status-cancelled' },
};

const SYNC_BADGE: Record<IntegrationSync['status'], string> = {
  queued: 'delivery-pending',
  retrying: 'delivery-pending',
  running: 'status-running',
  waiting_batch: 'status-running',
  succeeded: 'delivery-succeeded',
  failed: 'delivery-failed',
  cancelled: 'status-cancelled',
};

const SYNC_LABEL: Partial<Record<IntegrationSync['status'], string>> = { waiting_batch: 'waiting for the batch' };

function SyncBadge(props: { sync: IntegrationSync }) {
  return <span class={`badge ${SYNC_BADGE[props.sync.status]}`}>{SYNC_LABEL[props.sync.status] ?? props.sync.status}</span>;
}

const COUNTS: { key: keyof IntegrationSync['counts']; label: string }[] = [
  { key: 'strings', label: 'Strings' },
  { key: 'added', label: 'Added' },
  { key: 'changed', label: 'Changed' },
  { key: 'removed', label: 'Removed' },
  { key: 'human_edits', label: 'Human edits' },
  { key: 'refused_edits', label: 'Refused edits' },
  { key: 'written', label: 'Written' },
  { key: 'kept_remote', label: 'Kept remote' },
];

const settingText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The settings in the order the connector's form asks for them (the service stores them in no particular order). */
function settingsInOrder(connector: CatalogConnector, settings: Record<string, unknown>): [string, unknown][] {
  const order = Object.keys((connector.settings_schema?.properties ?? {}) as Record<string, unknown>);
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.entries(settings).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

function ConnectionCard(props: {
  connector: CatalogConnector;
  connection: IntegrationConnection;
  run(what: string, action: () => Promise<unknown>, done: string): Promise<void>;
  onRotated(connection: IntegrationConnection): void;
  onSaved(connection: IntegrationConnection): void;
  onRemoved(connection: IntegrationConnection): void;
}) {
  const { client } = useProject();
  const { connector, connection: c, run } = props;
  /** One form open at a time: both change what the next sync does. */
  const [open, setOpen] = useState<'settings' | 'credentials'>();
  const toggle = (form: 'settings' | 'credentials') => setOpen(open === form ? undefined : form);
  const [showSyncs, setShowSyncs] = useState(false);
  const status = CONNECTION_STATUS[c.status];
  const titleId = `connection-${c.id}-title`;
  const last = c.last_sync;

  const remove = () => {
    const question = `Disconnect ${c.name}? Its credentials and sync history are removed and its webhook address stops answering. The project's keys and translations stay, and nothing changes in ${connector.name}.`;
    if (!window.confirm(question)) return;
    void run('Disconnect', () => client.disconnect(connector.id, c.id).then(() => props.onRemoved(c)), `${c.name} disconnected.`);
  };

  return (
    <article class="card" aria-labelledby={titleId}>
      <h3 id={titleId}>{c.name}</h3>
      {c.last_error ? (
        <div class="notice notice-error connection-error">
          <p>
            <strong>Last error:</strong> {c.last_error}
          </p>
          <p class="hint">
            {c.status === 'retrying' ? 'The sync is retried with backoff.' : 'Fix what it names (Rotate credentials replaces refused ones), then Sync now.'}
          </p>
        </div>
      ) : null}
      {c.webhook_handshake ? (
        <div class="notice notice-warning" role="status">
          <p>
            <strong>{connector.name} sent a verification value</strong> ({formatDate(c.webhook_handshake.received_at)}): <span class="mono">{c.webhook_handshake.value}</span>{' '}
            <CopyButton text={c.webhook_handshake.value} label={`Copy the verification value of ${c.name}`} />
          </p>
          <p class="hint">Paste it into {connector.name}'s verify dialog; if {connector.name} accepts it, use it as this connection's webhook secret, which signs every later notification.</p>
          <button
            type="button"
            class="small"
            onClick={() => void run('Use as webhook secret', () => client.updateConnection(connector.id, c.id, { webhook_secret: c.webhook_handshake!.value }).then(props.onSaved), `The verification value is now the webhook secret of ${c.name}.`)}
            aria-label={`Use the verification value as the webhook secret of ${c.name}`}
          >
            Use as webhook secret
          </button>
        </div>
      ) : null}
      <dl class="facts compact">
        <dt>Status</dt>
        <dd>
          <span class={`badge ${status.badge}`}>{status.label}</span>
          {c.enabled ? null : <span class="muted"> (disabled: no syncs run)</span>}
        </dd>
        <dt>Last sync</dt>
        <dd>
          {last ? (
            <>
              <SyncBadge sync={last} /> {formatDate(last.finished_at ?? last.started_at ?? last.created_at)}, started by {last.trigger}
              {last.attempts > 1 ? <span class="muted"> (attempt {last.attempts})</span> : null}
              {last.status === 'retrying' && last.next_attempt_at ? <span class="muted"> · next attempt {formatDate(last.next_attempt_at)}</span> : null}
            </>
          ) : (
            'none yet'
          )}
        </dd>
        <dt>Webhook URL</dt>
        <dd>
          <span class="mono">{c.webhook_url}</span> <CopyButton text={c.webhook_url} label={`Copy the webhook URL of ${c.name}`} />
        </dd>
        {connector.upload ? (
          <>
            <dt>File</dt>
            <dd data-upload>{c.upload ? `${c.upload.name} (${formatNumber(c.upload.size)} bytes), uploaded ${formatDate(c.upload.uploaded_at)}` : 'none uploaded yet'}</dd>
          </>
        ) : null}
        <dt>Schedule</dt>
        <dd>{c.schedule_minutes === null ? 'on demand and on notifications' : `every ${plural(c.schedule_minutes, 'minute')}, next ${formatDate(c.next_scheduled_at)}`}</dd>
        <dt>Settings</dt>
        <dd class="mono">
          {settingsInOrder(connector, c.settings)
            .map(([k, v]) => `${k}: ${settingText(v)}`)
            .join('; ') || '—'}
        </dd>
      </dl>
      {last ? (
        <DataTable label={`Counts of the last sync of ${c.name}`} columns={['Sync', ...COUNTS.map((k) => ({ label: k.label, num: true }))]}>
          <tr>
            <th scope="row">Last sync</th>
            {COUNTS.map((k) => (
              <td class="num" key={k.key} data-count={k.key}>
                {formatNumber(last.counts[k.key])}
              </td>
            ))}
          </tr>
        </DataTable>
      ) : null}
      <div class="actions">
        <button
          type="button"
          class="small"
          disabled={!c.enabled}
          onClick={() => void run('Sync', () => client.syncConnection(connector.id, c.id), `Sync of ${c.name} queued.`)}
          aria-label={`Sync now ${c.name}`}
        >
          Sync now
        </button>
        <button
          type="button"
          class="small secondary"
          onClick={() => void run(c.enabled ? 'Disable' : 'Enable', () => client.updateConnection(connector.id, c.id, { enabled: !c.enabled }), `${c.name} ${c.enabled ? 'disabled' : 'enabled'}.`)}
          aria-label={`${c.enabled ? 'Disable' : 'Enable'} ${c.name}`}
        >
          {c.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" class="small secondary" aria-expanded={open === 'settings'} onClick={() => toggle('settings')} aria-label={`Edit settings of ${c.name}`}>
          Edit settings
        </button>
        <button type="button" class="small secondary" aria-expanded={open === 'credentials'} onClick={() => toggle('credentials')} aria-label={`Rotate credentials of ${c.name}`}>
          Rotate credentials
        </button>
        <button type="button" class="small danger" onClick={remove} aria-label={`Disconnect ${c.name}`}>
          Disconnect
        </button>
      </div>
      {connector.upload ? (
        <p class="upload">
          <label for={`upload-${c.id}`}>Upload {connector.upload.description}</label>{' '}
          <input
            id={`upload-${c.id}`}
            type="file"
            accept={connector.upload.extensions.join(',')}
            disabled={!c.enabled}
            onChange={(event) => {
              const input = event.currentTarget;
              const file = input.files?.[0];
              if (!file) return;
              void run(
                'Upload',
                async () => {
                  await client.uploadConnectionFile(connector.id, c.id, { name: file.name, content: new Uint8Array(await file.arrayBuffer()) });
                  input.value = '';
                },
                `${file.name} uploaded to ${c.name}; a sync that reads it is queued.`,
              );
            }}
          />
          <span class="hint"> Replaces the file uploaded before; each upload starts a sync.</span>
        </p>
      ) : null}
      {open === 'settings' ? (
        <SettingsForm
          connector={connector}
          connection={c}
          onCancel={() => setOpen(undefined)}
          onSaved={(updated) => {
            setOpen(undefined);
            props.onSaved(updated);
          }}
        />
      ) : null}
      {open === 'credentials' ? (
        <CredentialsForm
          connector={connector}
          connection={c}
          onCancel={() => setOpen(undefined)}
          onRotated={(updated) => {
            setOpen(undefined);
            props.onRotated(updated);
          }}
        />
      ) : null}
      <details onToggle={(e) => setShowSyncs(e.currentTarget.open)}>
        <summary>Recent syncs of {c.name}</summary>
        {showSyncs ? <Syncs connector={connector} connection={c} /> : null}
      </details>
    </article>
  );
}


const countsText = (s: IntegrationSync) =>
  `${plural(s.counts.strings, 'string')}: ${formatNumber(s.counts.added)} added, ${formatNumber(s.counts.changed)} changed, ${formatNumber(s.counts.removed)} removed; ${formatNumber(s.counts.written)} written`;

/** The connection's newest syncs with their logs; read again whenever the connection moves, so a running sync's log grows on screen. */
function Syncs(props: { connector: CatalogConnector; connection: IntegrationConnection }) {
  const { client } = useProject();
  const { connector, connection: c } = props;
  const moved = `${c.status}|${c.last_sync?.id ?? ''}|${c.last_sync?.status ?? ''}|${c.last_sync?.log.length ?? 0}|${c.updated_at}`;
  const syncs = useLoad(() => client.connectionSyncs(connector.id, c.id, { limit: SYNCS_SHOWN }), [client, connector.id, c.id, moved]);

  if (syncs.loading && !syncs.data) return <Loading what={`the syncs of ${c.name}`} />;
  if (!syncs.data) return <ErrorNotice error={syncs.error} title="Syncs unavailable" />;
  if (syncs.data.items.length === 0) return <p>No syncs yet.</p>;
  return (
    <DataTable label={`Syncs of ${c.name}`} columns={['Started', 'Status', 'Counts', 'Log']}>
      {syncs.data.items.map((s) => (
        <tr key={s.id}>
          <th scope="row">
            {formatDate(s.started_at ?? s.created_at)} <span class="muted">({s.trigger})</span>
          </th>
          <td>
            <SyncBadge sync={s} />
            {s.attempts > 1 ? <span class="muted"> (attempt {s.attempts})</span> : null}
            {s.error ? <div class="bad">{s.error}</div> : null}
          </td>
          <td>{countsText(s)}</td>
          <td>
            <LogLines log={s.log} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
