/** Delivery: releases and their CDN addresses, how releases are made, and the storage targets every release is copied to. */
import { useState } from 'preact/hooks';
import type { Project, Release, StorageSync, StorageTarget } from '../../../../src/client/types.js';
import { CopyButton, DataTable, ErrorNotice, Loading, LogLines, Pager, ProjectPage, SuccessNotice } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { formatDate, formatNumber, localeLabel, plural } from '../format.js';
import { useCursorPages, useListActions, useLoad, usePoll, useRequest } from '../hooks.js';
import { projectHref } from '../router.js';
import { CredentialsForm, EditTargetForm, StorageTargetForm } from './storage-target-form.js';

const RELEASES_PAGE = 10;
const SYNCS_SHOWN = 5;
const POLL_MS = 1000;

export function DeliveryPage() {
  const { can } = useProject();
  // Bumped by each publish: the release queued a sync to every enabled target, which the target list then shows.
  const [published, setPublished] = useState(0);
  return (
    <ProjectPage
      title="Delivery"
      ability="read"
      intro={
        <p>
          A release is a numbered snapshot of the project's translations that never changes. Apps read it from the CDN addresses below, and every enabled storage
          target receives a copy.
        </p>
      }
    >
      <Releases onPublished={() => setPublished((n) => n + 1)} />
      <ReleaseSettings />
      {can('manage') ? <StorageTargets published={published} /> : null}
    </ProjectPage>
  );
}

/** A CDN path of the service (`/cdn/…`) as the full address an app uses: the service and the console share an origin. */
const cdnUrl = (path: string) => new URL(path, location.origin).href;

/** The release's pinned path of a file, moved to `latest`, which always serves the newest release. */
function latestPath(path: string, bundleId: string, release: Release): string {
  const pinned = `/cdn/${bundleId}/${release.number}/`;
  return path.startsWith(pinned) ? `/cdn/${bundleId}/latest/${path.slice(pinned.length)}` : path;
}

function Releases(props: { onPublished(): void }) {
  const { client, can, projectId } = useProject();
  const { announce } = useAccount();
  const paging = useCursorPages();
  const { cursor } = paging;
  const data = useLoad(async () => {
    const page = await client.releases({ limit: RELEASES_PAGE, ...(cursor ? { cursor } : {}) });
    // Past the first page the newest release is not among those shown, and its addresses are the ones apps use.
    const latest = cursor ? (await client.releases({ limit: 1 })).items[0] : page.items[0];
    return { page, latest };
  }, [client, cursor]);
  const request = useRequest();
  const [result, setResult] = useState<string>();

  const publish = () =>
    request.submit(async () => {
      setResult(undefined);
      const { created, release } = await client.publishRelease();
      const text = created ? `Release ${release.number} published.` : `Nothing changed since release ${release.number}: no new release.`;
      setResult(text);
      announce(text);
      if (created) {
        data.reload();
        props.onPublished();
      }
    });

  const rotation = useRequest();
  const [rotated, setRotated] = useState<string>();
  const rotate = async () => {
    const confirmed = window.confirm(
      'Rotate the bundle id? Every CDN address with the current id stops working at once (caches may serve what they hold until it expires). The releases stay, under new addresses that apps must switch to.',
    );
    if (!confirmed) return;
    await rotation.submit(async () => {
      setRotated(undefined);
      const { bundle_id } = await client.rotateBundleId();
      const text = `Bundle id rotated to ${bundle_id}: the old CDN addresses no longer work.`;
      setRotated(text);
      announce(text);
      data.reload();
    });
  };
  if (data.loading && !data.data) return <Loading what="releases" />;
  if (!data.data) return <ErrorNotice error={data.error} title="Releases unavailable" />;
  const { page, latest } = data.data;

  return (
    <>
      <section class="card" aria-labelledby="cdn-title">
        <h2 id="cdn-title">CDN addresses</h2>
        <dl class="facts">
          <dt>Bundle id</dt>
          <dd class="mono">{page.bundle_id}</dd>
        </dl>
        <p class="hint">
          Anyone who has an address can read the bundle; the bundle id is what keeps it from being guessed. Addresses with <code>latest</code> follow each new release;
          those with a release number never change.
        </p>
        {latest ? <LatestAddresses bundleId={page.bundle_id} release={latest} /> : <p>No release yet: publish one and its addresses appear here.</p>}
        <ErrorNotice error={rotation.error} title="Bundle id not rotated" />
        <SuccessNotice text={rotated} />
        {can('manage') ? (
          <button type="button" class="secondary" onClick={() => void rotate()} disabled={rotation.busy}>
            {rotation.busy ? 'Rotating…' : 'Rotate bundle id'}
          </button>
        ) : null}
      </section>
      <section class="card" aria-labelledby="releases-title">
        <h2 id="releases-title">Releases</h2>
        {can('manage') ? (
          <div class="actions">
            <button type="button" onClick={() => void publish()} disabled={request.busy}>
              {request.busy ? 'Publishing…' : 'Publish release'}
            </button>
            <span class="hint">Snapshots the accepted translations (rows held for review never) as the next release, unless nothing changed.</span>
          </div>
        ) : (
          <p class="hint">Publishing releases and rotating the bundle id need the manage ability.</p>
        )}
        <ErrorNotice error={request.error} title="Not published" />
        <SuccessNotice text={result} />
        {page.items.length === 0 ? <p>No releases yet.</p> : null}
        {page.items.length > 0 ? (
          <DataTable label="Releases" columns={['Release', 'Published', 'Made by', 'Locales', 'Shape']} busy={data.loading}>
            {page.items.map((r) => (
              <tr key={r.id}>
                <th scope="row">Release {r.number}</th>
                <td>{formatDate(r.created_at)}</td>
                <td>{r.trigger === 'batch' && r.batch_id ? <a href={projectHref(projectId, 'batches', r.batch_id)}>batch {r.batch_id}</a> : 'publish (console or API)'}</td>
                <td>
                  {r.locales.map((l, i) => (
                    <span key={l.locale}>
                      {i > 0 ? ', ' : ''}
                      <a href={cdnUrl(l.path)} class="mono" aria-label={`${l.locale} of release ${r.number}`}>
                        {l.locale}
                      </a>{' '}
                      ({plural(l.keys, 'key')})
                    </span>
                  ))}
                </td>
                <td>
                  {r.shape}
                  {r.includes_files ? ', with files' : ''}
                </td>
              </tr>
            ))}
          </DataTable>
        ) : null}
        <Pager label="Release pages" pages={paging} next={page.next_cursor} />
      </section>
    </>
  );
}

function LatestAddresses(props: { bundleId: string; release: Release }) {
  const { bundleId, release } = props;
  const rows = [
    ...(release.manifest ? [{ label: 'manifest.json', detail: 'every file of the release with its hash', url: cdnUrl(latestPath(release.manifest.path, bundleId, release)) }] : []),
    ...release.locales.map((l) => ({ label: localeLabel(l.locale), detail: plural(l.keys, 'key'), url: cdnUrl(latestPath(l.path, bundleId, release)) })),
  ];
  return (
    <DataTable label={`Latest addresses (release ${release.number})`} columns={['File', 'Holds', 'Address']} actions>
      {rows.map((row) => (
        <tr key={row.url}>
          <th scope="row">{row.label}</th>
          <td>{row.detail}</td>
          <td>
            <a href={row.url} class="mono" target="_blank" rel="noopener noreferrer">
              {row.url}
            </a>
          </td>
          <td>
            <CopyButton text={row.url} label={`Copy the address of ${row.label}`} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

type DeliverySettings = Project['delivery'];

function ReleaseSettings() {
  const { client, can } = useProject();
  const { announce } = useAccount();
  const project = useLoad(() => client.project(), [client]);
  // Undefined until the person changes something: until then the form shows what the service holds.
  const [draft, setDraft] = useState<DeliverySettings>();
  const request = useRequest();
  const [saved, setSaved] = useState(false);
  const settings = draft ?? project.data?.delivery;
  const canManage = can('manage');

  const change = (patch: Partial<DeliverySettings>) => {
    if (!settings) return;
    setSaved(false);
    setDraft({ ...settings, ...patch });
  };

  const save = (event: Event) => {
    event.preventDefault();
    if (!draft) return;
    return request.submit(async () => {
      await client.updateProject(draft);
      // PATCH answers the settings alone, not the project: read the project again rather than patch it up here.
      project.reload();
      setDraft(undefined);
      setSaved(true);
      announce('Release settings saved. They apply from the next release.');
    });
  };

  if (!settings) return project.error ? <ErrorNotice error={project.error} title="Release settings unavailable" /> : <Loading what="release settings" />;
  return (
    <form class="card form" onSubmit={(e) => void save(e)} aria-labelledby="release-settings-title">
      <h2 id="release-settings-title">How releases are made</h2>
      <label class="check">
        <input type="checkbox" checked={settings.release_on_batch} disabled={!canManage} onChange={(e) => change({ release_on_batch: e.currentTarget.checked })} /> Publish a
        release after every batch that completes
      </label>
      <fieldset disabled={!canManage}>
        <legend>Bundle shape</legend>
        <label class="check">
          <input type="radio" name="bundle-shape" checked={settings.bundle_shape === 'flat'} onChange={() => change({ bundle_shape: 'flat' })} /> Flat: one key per entry,{' '}
          <code>{'{"home.title": "…"}'}</code>
        </label>
        <label class="check">
          <input type="radio" name="bundle-shape" checked={settings.bundle_shape === 'nested'} onChange={() => change({ bundle_shape: 'nested' })} /> Nested: dotted keys as
          objects, <code>{'{"home": {"title": "…"}}'}</code>
        </label>
      </fieldset>
      <label class="check">
        <input type="checkbox" checked={settings.bundle_files} disabled={!canManage} onChange={(e) => change({ bundle_files: e.currentTarget.checked })} /> Include each
        source file's translations in the file's own format too, beside the JSON bundles
      </label>
      <ErrorNotice error={request.error} title="Settings not saved" />
      <SuccessNotice text={saved ? 'Settings saved. They apply from the next release.' : undefined} />
      {canManage ? (
        <button type="submit" disabled={request.busy || !draft}>
          {request.busy ? 'Saving…' : 'Save settings'}
        </button>
      ) : (
        <p class="hint">Changing these needs the manage ability.</p>
      )}
    </form>
  );
}

const isMoving = (t: StorageTarget) => t.status === 'pending' || t.status === 'syncing';

function StorageTargets(props: { published: number }) {
  const { client } = useProject();
  const { announce } = useAccount();
  const targets = useLoad(() => client.storageTargets(), [client, props.published]);
  const { request, result, run, done } = useListActions(targets.reload);

  usePoll(
    async () => {
      const fresh = await client.storageTargets();
      for (const target of fresh) {
        const before = targets.data?.find((t) => t.id === target.id);
        if (before && isMoving(before) && !isMoving(target)) announce(target.status === 'ok' ? `${target.name}: release ${target.last_release_number ?? ''} synced.` : `${target.name}: sync ${target.status}.`);
      }
      targets.set(fresh);
    },
    POLL_MS,
    targets.data?.some(isMoving) ?? false,
  );

  return (
    <section aria-labelledby="targets-title">
      <h2 id="targets-title">Storage targets</h2>
      <p class="hint">
        Each release is copied to every enabled S3-compatible bucket or Azure Blob container: only files that changed are uploaded, <code>manifest.json</code> last, so a
        reader never sees a manifest ahead of its files. Credentials are stored encrypted and never shown again.
      </p>
      <ErrorNotice error={request.error ?? targets.error} title="Not done" />
      <SuccessNotice text={result} />
      {targets.loading && !targets.data ? <Loading what="storage targets" /> : null}
      {targets.data && targets.data.length === 0 ? <p>No storage targets yet.</p> : null}
      {targets.data?.map((t) => (
        <TargetCard
          key={t.id}
          target={t}
          run={run}
          onRotated={(updated) => done(`Credentials of ${updated.name} replaced (${updated.credentials.hint}).`)}
          onSaved={(updated) => done(`Settings of ${updated.name} saved.`)}
        />
      ))}
      <StorageTargetForm onCreated={(t) => done(`Storage target ${t.name} added. It receives the next release; “Sync now” sends the latest one.`)} />
    </section>
  );
}

const TARGET_STATUS: Record<StorageTarget['status'], { label: string; badge: string }> = {
  idle: { label: 'never synced', badge: 'status-cancelled' },
  pending: { label: 'pending', badge: 'status-queued' },
  syncing: { label: 'syncing', badge: 'status-running' },
  ok: { label: 'ok', badge: 'status-completed' },
  failed: { label: 'failed', badge: 'status-failed' },
};

function where(t: StorageTarget): string {
  if (t.s3) return `bucket ${t.s3.bucket} ${t.s3.endpoint ? `at ${t.s3.endpoint}` : `on AWS S3 (${t.s3.region})`}${t.s3.force_path_style ? ', path style' : ''}`;
  if (t.azure_blob) return `Azure Blob container ${t.azure_blob.container}${t.azure_blob.account_url ? ` at ${t.azure_blob.account_url}` : ''}`;
  return t.kind;
}

function TargetCard(props: {
  target: StorageTarget;
  run(what: string, action: () => Promise<unknown>, done: string): Promise<void>;
  onRotated(target: StorageTarget): void;
  onSaved(target: StorageTarget): void;
}) {
  const { client } = useProject();
  const { target: t, run } = props;
  const [rotating, setRotating] = useState(false);
  const [editing, setEditing] = useState(false);
  const [showSyncs, setShowSyncs] = useState(false);
  const status = TARGET_STATUS[t.status];
  const titleId = `target-${t.id}-title`;

  const remove = () => {
    if (!window.confirm(`Delete the storage target ${t.name}? What it already holds stays in the ${t.kind === 's3' ? 'bucket' : 'container'}; new releases are no longer copied there.`)) return;
    void run('Delete', () => client.deleteStorageTarget(t.id), `Storage target ${t.name} deleted.`);
  };

  return (
    <article class="card" aria-labelledby={titleId}>
      <h3 id={titleId}>{t.name}</h3>
      <dl class="facts compact">
        <dt>Status</dt>
        <dd>
          <span class={`badge ${status.badge}`}>{status.label}</span>
          {t.enabled ? null : <span class="muted"> (disabled: releases are not copied here)</span>}
        </dd>
        {t.last_error ? (
          <>
            <dt>Last error</dt>
            <dd class="bad">{t.last_error}</dd>
          </>
        ) : null}
        <dt>Last release</dt>
        <dd>{t.last_release_number === null ? 'none yet' : `release ${t.last_release_number}, synced ${formatDate(t.last_synced_at)}`}</dd>
        <dt>Where</dt>
        <dd>{where(t)}</dd>
        <dt>Bundles at</dt>
        <dd class="mono">
          {t.prefix}
          {t.path_template}
        </dd>
        <dt>Files at</dt>
        <dd class="mono">
          {t.prefix}
          {t.files_template ?? 'files/<the pulled path>'}
        </dd>
        <dt>Cache-Control</dt>
        <dd>{t.cache_control ?? 'not set'}</dd>
        <dt>Credentials</dt>
        <dd>{t.credentials.hint}</dd>
      </dl>
      <div class="actions">
        <button type="button" class="small" onClick={() => void run('Sync', () => client.syncStorageTarget(t.id), `Sync of the latest release to ${t.name} queued.`)} aria-label={`Sync now to ${t.name}`}>
          Sync now
        </button>
        <button
          type="button"
          class="small secondary"
          onClick={() => void run(t.enabled ? 'Disable' : 'Enable', () => client.updateStorageTarget(t.id, { enabled: !t.enabled }), `${t.name} ${t.enabled ? 'disabled' : 'enabled'}.`)}
          aria-label={`${t.enabled ? 'Disable' : 'Enable'} ${t.name}`}
        >
          {t.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" class="small secondary" aria-expanded={editing} onClick={() => setEditing(!editing)} aria-label={`Edit settings of ${t.name}`}>
          Edit settings
        </button>
        <button type="button" class="small secondary" aria-expanded={rotating} onClick={() => setRotating(!rotating)} aria-label={`Rotate credentials of ${t.name}`}>
          Rotate credentials
        </button>
        <button type="button" class="small danger" onClick={remove} aria-label={`Delete ${t.name}`}>
          Delete
        </button>
      </div>
      {editing ? (
        <EditTargetForm
          target={t}
          onCancel={() => setEditing(false)}
          onSaved={(updated) => {
            setEditing(false);
            props.onSaved(updated);
          }}
        />
      ) : null}
      {rotating ? (
        <CredentialsForm
          target={t}
          onCancel={() => setRotating(false)}
          onRotated={(updated) => {
            setRotating(false);
            props.onRotated(updated);
          }}
        />
      ) : null}
      <details onToggle={(e) => setShowSyncs(e.currentTarget.open)}>
        <summary>Recent syncs of {t.name}</summary>
        {showSyncs ? <Syncs target={t} /> : null}
      </details>
    </article>
  );
}


const SYNC_BADGE: Record<StorageSync['status'], string> = {
  pending: 'delivery-pending',
  running: 'status-running',
  succeeded: 'delivery-succeeded',
  failed: 'delivery-failed',
  superseded: 'status-cancelled',
};

/** The target's newest syncs; read again whenever the target's status moves, so a running sync's log grows on screen. */
function Syncs(props: { target: StorageTarget }) {
  const { client } = useProject();
  const t = props.target;
  const moved = `${t.status}|${t.last_synced_at ?? ''}|${t.last_error ?? ''}|${t.updated_at}`;
  const syncs = useLoad(() => client.storageSyncs(t.id, { limit: SYNCS_SHOWN }), [client, t.id, moved]);

  if (syncs.loading && !syncs.data) return <Loading what={`the syncs of ${t.name}`} />;
  if (!syncs.data) return <ErrorNotice error={syncs.error} title="Syncs unavailable" />;
  if (syncs.data.items.length === 0) return <p>No syncs yet.</p>;
  return (
    <DataTable label={`Syncs of ${t.name}`} columns={['Release', 'Status', { label: 'Uploaded', num: true }, { label: 'Unchanged', num: true }, 'Started', 'Log']}>
      {syncs.data.items.map((s) => (
        <tr key={s.id}>
          <th scope="row">Release {s.release}</th>
          <td>
            <span class={`badge ${SYNC_BADGE[s.status]}`}>{s.status}</span>
            {s.attempts > 1 ? <span class="muted"> (attempt {s.attempts})</span> : null}
            {s.error ? <div class="bad">{s.error}</div> : null}
          </td>
          <td class="num">{formatNumber(s.uploaded)}</td>
          <td class="num">{formatNumber(s.unchanged)}</td>
          <td>{formatDate(s.started_at ?? s.created_at)}</td>
          <td>
            <LogLines log={s.log} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
